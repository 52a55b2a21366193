/**
 * After a mixed workload that handles card data every way the API allows (support/card-workload.ts),
 * and a fuzz of every free-text field of the catalogue with card numbers in every separator form
 * (support/card-text-fuzz.ts: dots, slashes, zero-width characters, full-width digits …), a dump of
 * every table and the gateway's whole log hold no Luhn-valid 13–19 digit sequence (spaces or dashes
 * allowed between the digits, read after NFKC without invisible characters) and none of the fuzzed
 * numbers in any form. Two variants:
 * - a real gateway process on a PostgreSQL schema of its own (TEST_DATABASE_URL), with an active
 *   webhook whose deliveries reach a local receiver (their bodies are searched too);
 * - the app in process on the embedded PGlite, its log captured.
 * A hit is reported by table and column (or log field), masked.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startGatewayProcess } from '../../bench/support/gateway.js';
import type { NodeProcess } from '../../bench/support/node-process.js';
import { createBenchSchema, createMerchant, type BenchSchema } from '../../bench/support/postgres.js';
import { generateWebhookSecret } from '../../src/domain/webhook-crypto.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import { activatePendingWebhooks, insertWebhook } from '../../src/storage/repositories/webhooks.js';
import { separatorForms } from '../support/card-numbers.js';
import { testDatabases } from '../support/databases.js';
import { bearer, FORM_HEADERS, form, startTestApp, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, WebhookReceiver } from '../support/webhook-receiver.js';
import { dumpSchema, findInLog, findInRows, summary, type Finding } from './support/card-dump.js';
import { cardNumbersIn, hiddenNumbersIn, masked } from './support/card-scan.js';
import { FUZZ_NUMBERS } from './support/card-text-fuzz.js';
import { runCardWorkload, type Send, type WorkloadReport } from './support/card-workload.js';
import { testDatabaseUrl } from './support/fault-setup.js';

const url = testDatabaseUrl();

function report(variant: string, workload: WorkloadReport, tables: readonly string[], findings: readonly Finding[]): void {
  console.log(JSON.stringify({ variant, ...workload, tables, findings: findings.length, where: summary(findings) }));
}

/** Every line the process writes, kept whole (NodeProcess keeps only the last 64 KiB). */
function recordLog(gateway: NodeProcess): string[] {
  const lines = gateway.output().split('\n');
  let partial = '';
  const keep = (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const parts = text.split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  };
  gateway.child.stdout!.on('data', keep);
  gateway.child.stderr!.on('data', keep);
  return lines;
}

describe('no card number in any table or log after a mixed workload', () => {
  describe('a gateway process on PostgreSQL', { skip: url ? false : 'TEST_DATABASE_URL not set' }, () => {
    let schema: BenchSchema;
    let gateway: NodeProcess;
    let receiver: WebhookReceiver;
    let log: string[];
    let merchant: { entityId: string; accessToken: string };
    before(async () => {
      schema = await createBenchSchema('fault_dump', url!);
      receiver = await WebhookReceiver.start();
      // The receiver listens on 127.0.0.1, which webhooks may only reach when the operator allows it.
      gateway = await startGatewayProcess({ databaseUrl: schema.url, env: { LOG_LEVEL: 'trace', WORKER_POLL_INTERVAL_MS: '100', ...RECEIVER_ENV } });
      log = recordLog(gateway);
      merchant = await createMerchant(schema.url, 'Dump shop');
      // Straight into the table: this test is about what is stored, not about which URLs a webhook may have.
      const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
      try {
        const now = new Date();
        const id = randomBytes(16).toString('hex');
        const secret = generateWebhookSecret();
        receiver.setSecret('/hooks', secret);
        await storage.transaction(async (tx) => {
          await insertWebhook(tx, { id, entityId: merchant.entityId, url: receiver.url('/hooks'), secret, status: 'pending', createdAt: now, updatedAt: now, activatedAt: null, notificationTypes: ['PAYMENT', 'REGISTRATION', 'SCHEDULE', 'RISK'] });
          await activatePendingWebhooks(tx, [id], now);
        });
      } finally {
        await storage.close();
      }
    });
    after(async () => {
      await gateway?.stop();
      await receiver?.stop();
      await schema?.drop();
    });

    it('dump of every table, the whole log and every webhook body', { timeout: 180_000 }, async () => {
      const send: Send = async (method, path, fields) => {
        const query = method === 'POST' ? '' : `?${new URLSearchParams(fields)}`;
        const response = await fetch(`${gateway.url}${path}${query}`, {
          method,
          headers: { authorization: `Bearer ${merchant.accessToken}`, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
          ...(method === 'POST' ? { body: new URLSearchParams(fields).toString() } : {}),
        });
        return { status: response.status, body: await response.text() };
      };
      const workload = await runCardWorkload(send, merchant.entityId);
      // Webhook deliveries of the payments: wait until some arrived, then let the queue settle.
      await Promise.race([receiver.until(() => receiver.received.length >= 10), new Promise((resolve) => setTimeout(resolve, 30_000))]);
      await new Promise((resolve) => setTimeout(resolve, 2_000));

      const dump = await dumpSchema(schema.admin, schema.name);
      for (const table of ['transactions', 'registrations', 'notifications']) assert.ok(dump.tables.includes(table), `${table} was dumped`);
      assert.ok(dump.rows.length > 30, `the dump has rows (${dump.rows.length})`);
      const webhookBodies = receiver.received.map((r) => r.rawBody);
      const findings = [
        ...findInRows(dump.rows, FUZZ_NUMBERS),
        ...findInLog(log, 'gateway log', FUZZ_NUMBERS),
        ...webhookBodies.flatMap((body, index) => [...cardNumbersIn(body), ...hiddenNumbersIn(body, FUZZ_NUMBERS)].map((found) => ({ where: `webhook body ${index + 1}`, cardNumber: masked(found) }))),
      ];
      report('postgres process', { ...workload, webhookBodies: webhookBodies.length, logLines: log.length } as WorkloadReport, dump.tables, findings);
      assert.ok(log.length > workload.requests, 'every request was logged');
      assert.ok(webhookBodies.length > 0, 'webhook bodies were delivered and searched');
      assert.deepEqual(summary(findings), {}, 'no card number in the database, the log or a webhook body');
      assert.deepEqual(workload.misplacedAccepted, [], 'card numbers in free-text fields are refused');
      assert.deepEqual(workload.notRefused, [], 'card numbers in every separator form are refused in every field');
    });
  });

  it('the search finds a card number however it is stored, and nothing in ids, times or amounts', () => {
    const rows = [
      { table: 'plain', json: JSON.stringify({ note: 'card 4200 0000 0000 0000', id: '8ac7a4a1424200000000000000000000', at: '2026-11-23T23:25:07.391+00:00', amount: 4200000000000000 }) },
      { table: 'bytes', json: JSON.stringify({ blob: `\\x${Buffer.from('pan=5454-5454-5454-5454').toString('hex')}` }) },
      { table: 'nested', json: JSON.stringify({ response: { descriptor: '378282246310005' } }) },
      { table: 'clean', json: JSON.stringify({ masked: '420000******0000', bin: '420000', last4: '0000', time: 1795478021123 }) },
    ];
    assert.deepEqual(summary(findInRows(rows)), { 'plain.note': ['420000******0000'], 'bytes.blob': ['545454******5454'], 'nested.response': ['378282*****0005'] });
    assert.deepEqual(findInLog(['{"time":1795478021123,"responseTime":7.1595429758,"msg":"ok"}', '{"msg":"x","descriptor":"4111-1111-1111-1111"}'], 'log').map((f) => f.where), ['log line 2: descriptor']);
  });

  it('the search finds the fuzzed numbers in every separator form, and not behind a mask', () => {
    for (const number of FUZZ_NUMBERS) {
      for (const [form, written] of separatorForms(number)) {
        const rows = [{ table: 'checkouts', json: JSON.stringify({ parameters: { descriptor: `ref ${written} thanks`, amount: '25.00' } }) }];
        assert.equal(findInRows(rows, FUZZ_NUMBERS).length, 1, `${form}: ${written}`);
        assert.equal(findInLog([JSON.stringify({ msg: 'x', note: written })], 'log', FUZZ_NUMBERS).length, 1, `log ${form}`);
      }
    }
    const clean = [{ table: 'transactions', json: JSON.stringify({ descriptor: '411111******1111', bin: '411111', last4: '1111', at: '2026-11-23T23:25:07.391+00:00', amount: '4111.11' }) }];
    assert.deepEqual(findInRows(clean, FUZZ_NUMBERS), []);
  });

  describe('the app in process on PGlite', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(await testDatabases()[0]!.open(), { env: { LOG_LEVEL: 'trace' } });
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it('dump of every table and the whole log', { timeout: 120_000 }, async () => {
      const merchant = await t.createMerchant();
      const send: Send = async (method, path, fields) => {
        const response = await t.app.inject({
          method,
          url: method === 'POST' ? path : `${path}?${new URLSearchParams(fields)}`,
          headers: { ...bearer(merchant.accessToken), ...(method === 'POST' ? FORM_HEADERS : {}) },
          ...(method === 'POST' ? { payload: form(fields) } : {}),
        });
        return { status: response.statusCode, body: response.body };
      };
      const workload = await runCardWorkload(send, merchant.entityId);
      const dump = await dumpSchema(t.storage, 'public');
      assert.ok(dump.rows.length > 30, `the dump has rows (${dump.rows.length})`);
      const findings = [...findInRows(dump.rows, FUZZ_NUMBERS), ...findInLog(t.logs.lines, 'app log', FUZZ_NUMBERS)];
      report('pglite in process', workload, dump.tables, findings);
      assert.deepEqual(summary(findings), {}, 'no card number in the database or the log');
      assert.deepEqual(workload.misplacedAccepted, [], 'card numbers in free-text fields are refused');
      assert.deepEqual(workload.notRefused, [], 'card numbers in every separator form are refused in every field');
    });
  });
});
