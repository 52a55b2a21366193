/**
 * 1,000 schedules due in the same second, on PostgreSQL, with two gateway processes and a
 * `npm run worker` claiming their runs; one gateway is SIGKILLed while the runs are being made.
 * Every schedule must end with exactly one payment: none lost with the killed process (its
 * claimed jobs come back when their leases run out), none doubled (a firing made again finds the
 * payment its idempotency claim already wrote).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { startCommand, startGatewayProcess } from '../../bench/support/gateway.js';
import { ROOT, scratchDataDir, type NodeProcess } from '../../bench/support/node-process.js';
import { createBenchSchema, createMerchant } from '../../bench/support/postgres.js';
import { testDatabaseUrl } from './support/fault-setup.js';

const url = testDatabaseUrl();
const SCHEDULES = 1_000;
const REGISTRATIONS = 10;
const RUNS_BEFORE_KILL = 50;
// Short leases so the killed process's jobs come back within seconds, not a minute.
const ENV = { VAULT_MASTER_KEY: randomBytes(32).toString('hex'), WEBHOOK_TIMEOUT_MS: '2000', WORKER_LEASE_MS: '10000', WORKER_POLL_INTERVAL_MS: '100' };

interface Merchant {
  readonly entityId: string;
  readonly accessToken: string;
}

async function post(gatewayUrl: string, merchant: Merchant, path: string, fields: Record<string, string>): Promise<Record<string, any>> {
  const response = await fetch(`${gatewayUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ entityId: merchant.entityId, ...fields }),
  });
  const body = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function registrationWithInitialCit(gatewayUrl: string, merchant: Merchant): Promise<string> {
  const card = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };
  const registration = await post(gatewayUrl, merchant, '/v1/registrations', card);
  const initial = { amount: '1.00', currency: 'EUR', paymentType: 'DB', 'card.cvv': '123', 'standingInstruction.type': 'RECURRING', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT' };
  await post(gatewayUrl, merchant, `/v1/registrations/${registration['id']}/payments`, initial);
  return registration['id'] as string;
}

/** `npm run worker` (built): ready once it says its job worker started. */
async function startWorkerProcess(databaseUrl: string): Promise<ChildProcess> {
  const start = startCommand();
  const child = spawn(process.execPath, [start.script.replace(/main\.js$/, 'worker.js')], {
    cwd: ROOT,
    env: { ...process.env, ...ENV, DATABASE_URL: databaseUrl, DATA_DIR: scratchDataDir(), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-65_536);
      if (output.includes('job worker started')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-65_536)));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
  child.stdout!.resume();
  return child;
}

/** Quartz fields that fire once, at `at` (UTC). */
function onceAt(at: Date): string {
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} ? ${at.getUTCFullYear()}`;
}

async function inBatches<T>(count: number, concurrency: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      results[i] = await make(i);
    }
  }));
  return results;
}

describe('1,000 schedules due in the same second, two gateways and a worker, one gateway killed', { skip: url ? false : 'TEST_DATABASE_URL not set: this test needs PostgreSQL' }, () => {
  it('makes exactly one payment per schedule', { timeout: 420_000 }, async () => {
    const schema = await createBenchSchema('fault_schedules', url!);
    const processes: NodeProcess[] = [];
    let worker: ChildProcess | undefined;
    try {
      processes.push(await startGatewayProcess({ databaseUrl: schema.url, env: ENV }));
      processes.push(await startGatewayProcess({ databaseUrl: schema.url, env: ENV }));
      worker = await startWorkerProcess(schema.url);
      const [killed, survivor] = processes as [NodeProcess, NodeProcess];
      const merchant = await createMerchant(schema.url, 'Schedule shop');
      const registrations = await inBatches(REGISTRATIONS, 4, () => registrationWithInitialCit(survivor.url, merchant));

      // One second for all of them, far enough ahead for 1,000 creations on a busy machine.
      const fireAt = new Date(Math.ceil((Date.now() + 45_000) / 1000) * 1000);
      const ids = await inBatches(SCHEDULES, 16, async (i) => {
        const gateway = i % 2 === 0 ? killed : survivor;
        const body = await post(gateway.url, merchant, '/scheduling/v1/schedules', {
          registrationId: registrations[i % REGISTRATIONS]!, amount: '3.00', currency: 'EUR', paymentType: 'DB', 'job.expression': onceAt(fireAt), merchantTransactionId: `schedule-${String(i).padStart(4, '0')}`,
        });
        return body['id'] as string;
      });
      assert.equal(new Set(ids).size, SCHEDULES);
      assert.ok(Date.now() < fireAt.getTime() - 1_000, 'the schedules were created before their fire time (machine too slow?)');

      const count = async (sql: string) => Number((await schema.admin.query<{ n: string }>(sql)).rows[0]!.n);
      const deadline = fireAt.getTime() + 60_000;
      while ((await count('SELECT count(*) AS n FROM schedule_runs')) < RUNS_BEFORE_KILL && Date.now() < deadline) await sleep(20);
      const runsAtKill = await count('SELECT count(*) AS n FROM schedule_runs');
      const claimedByKilled = await count(`SELECT count(*) AS n FROM jobs WHERE kind = 'schedule-run' AND locked_by LIKE '%:${killed.pid}:%'`);
      const exited = once(killed.child, 'exit');
      killed.child.kill('SIGKILL');
      await exited;
      assert.ok(runsAtKill >= RUNS_BEFORE_KILL && runsAtKill < SCHEDULES, `the kill landed mid-run (${runsAtKill} runs made)`);

      const endBy = Date.now() + 240_000;
      while ((await count(`SELECT count(*) AS n FROM schedules WHERE status = 'ended'`)) < SCHEDULES && Date.now() < endBy) await sleep(250);
      assert.equal(await count(`SELECT count(*) AS n FROM schedules WHERE status = 'ended' AND end_reason = 'completed'`), SCHEDULES, 'every schedule made its run and ended');

      const payments = await schema.admin.query<{ schedule_id: string; payments: string }>(
        `SELECT s.id AS schedule_id, count(t.id) AS payments
           FROM schedules s LEFT JOIN transactions t ON t.merchant_transaction_id = s.run_request->>'merchantTransactionId' AND t.payment_type = 'DB'
          GROUP BY s.id`,
      );
      const wrong = payments.rows.filter((r) => Number(r.payments) !== 1);
      assert.deepEqual(wrong, [], 'one payment per schedule');
      assert.equal(await count(`SELECT count(*) AS n FROM transactions WHERE payment_type = 'DB' AND merchant_transaction_id LIKE 'schedule-%'`), SCHEDULES);
      assert.equal(await count('SELECT count(DISTINCT transaction_id) AS n FROM schedule_runs'), SCHEDULES);
      const late = await schema.admin.query<{ p50: number; p99: number; max: number }>(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, max(ms) AS max
           FROM (SELECT extract(epoch FROM t.created_at - r.fire_at) * 1000 AS ms FROM schedule_runs r JOIN transactions t ON t.id = r.transaction_id) d`,
      );
      console.log(JSON.stringify({ schedules: SCHEDULES, runsAtKill, claimedByKilled, fireToPaymentMs: late.rows[0] }));
    } finally {
      worker?.kill('SIGKILL');
      for (const p of processes) await p.stop('SIGKILL').catch(() => undefined);
      await schema.drop();
    }
  });
});
