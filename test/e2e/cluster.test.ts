import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startCommand } from '../../bench/support/gateway.js';
import { startGateway, type GatewayProcess } from '../support/gateway-process.js';
import { SAMPLE_CARD } from '../support/payments.js';

/**
 * GATEWAY_PROCESSES=2 on PostgreSQL: one primary, two gateway processes on one port. The
 * database is prepared once, a process that dies is replaced, and SIGTERM stops them all.
 */
const url = process.env['TEST_DATABASE_URL'];

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The gateway processes: the primary's children running its script (node:cluster forks it again). */
function gatewayProcesses(primary: number): number[] {
  const script = startCommand().script;
  return childrenOf(primary).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script);
    } catch {
      return false;
    }
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('several gateway processes on one port', { skip: url ? false : 'TEST_DATABASE_URL not set: GATEWAY_PROCESSES needs PostgreSQL' }, () => {
  const schema = `cluster_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  let gateway: GatewayProcess;
  let merchant: { entityId: string; accessToken: string };

  before(async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const databaseUrl = `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    gateway = await startGateway({ DATABASE_URL: databaseUrl, GATEWAY_PROCESSES: '2' });
    const output = gateway.output();
    merchant = { entityId: /entityId:\s+(\w+)/.exec(output)![1]!, accessToken: /accessToken:\s+(\S+)/.exec(output)![1]! };
  });
  after(async () => {
    await gateway?.stop();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  // Each payment on a connection of its own (no keep-alive pool): the primary hands every new
  // connection to a live process, while a pooled connection to a process just killed would fail
  // on the client's side before any process was asked (a CI run saw exactly that).
  const pay = (amount: string) => new Promise<{ status: number; body: { id: string } }>((resolve, reject) => {
    const body = new URLSearchParams({ entityId: merchant.entityId, paymentType: 'DB', amount, currency: 'EUR', ...SAMPLE_CARD }).toString();
    const request = http.request(`${gateway.url}/v1/payments`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
    }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as { id: string } });
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on('error', reject).end(body);
  });

  it('prepares the database once and serves payments from two processes', async () => {
    assert.equal(gateway.output().match(/Demo merchant created/g)?.length, 1, 'one demo merchant, printed once');
    assert.equal(gateway.output().match(/"msg":"gateway ready"/g)?.length, 1);
    assert.equal(gatewayProcesses(gateway.child.pid!).length, 2);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => pay(`${n + 1}.00`)));
    assert.deepEqual(answers.map((a) => a.status), answers.map(() => 200));
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.transactions`);
    assert.equal(rows[0].n, 40);
    const migrations = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.entities`);
    assert.equal(migrations.rows[0].n, 1, 'the demo merchant exists once');
  });

  it('replaces a process that dies, and keeps serving meanwhile', async () => {
    const [victim, survivor] = gatewayProcesses(gateway.child.pid!);
    process.kill(victim!, 'SIGKILL');
    await until(() => !alive(victim!));
    assert.equal((await pay('3.00')).status, 200, 'the other process serves while the replacement starts');
    await until(() => gatewayProcesses(gateway.child.pid!).filter((pid) => pid !== survivor).length === 1);
    assert.ok(gateway.output().includes('gateway process died; starting another'));
    const answers = await Promise.all(Array.from({ length: 10 }, () => pay('4.00')));
    assert.deepEqual(answers.map((a) => a.status), answers.map(() => 200));
  });

  it('outlives the death of every process and starts them all again', async () => {
    const before = gatewayProcesses(gateway.child.pid!);
    for (const pid of before) process.kill(pid, 'SIGKILL');
    await until(() => before.every((pid) => !alive(pid)));
    assert.ok(alive(gateway.child.pid!), 'the primary waits for the replacements');
    await until(() => gatewayProcesses(gateway.child.pid!).filter((pid) => !before.includes(pid)).length === 2);
    assert.ok(gateway.output().includes('"restartInMs":2000'), 'the slot that died twice within a minute waited twice as long');
    let answer = 0;
    for (const deadline = Date.now() + 20_000; answer !== 200 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      answer = await pay('5.00').then((a) => a.status, () => 0);
    }
    assert.equal(answer, 200, 'the replacements serve');
  });

  it('stops every process on SIGTERM', async () => {
    const processes = gatewayProcesses(gateway.child.pid!);
    assert.equal(await gateway.stop('SIGTERM'), 0);
    await until(() => processes.every((pid) => !alive(pid)));
  });
});
