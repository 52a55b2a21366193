import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Connector } from '../../../src/connectors/connector.js';
import { ACQUIRER_HOST_CONNECTOR_ID, createDefaultConnectors } from '../../../src/connectors/default-connectors.js';
import { EXTERNAL_TEST_PLATFORM } from '../../../src/connectors/simulator/index.js';
import { randomIds } from '../../../src/domain/ids.js';
import { DEFAULT_LIFECYCLE_POLICY } from '../../../src/domain/lifecycle/policy.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import { JobWorker } from '../../../src/jobs/job-worker.js';
import { reversalAdviceHandler } from '../../../src/jobs/send-reversal-advice.js';
import { testDatabases } from '../../support/databases.js';
import { paymentSeries, watchMetrics } from '../../support/metric-watch.js';
import { cardPayment, type Merchant } from '../../support/payments.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../support/test-app.js';

const EXTERNAL = { testMode: 'EXTERNAL' };
const PLATFORM = EXTERNAL_TEST_PLATFORM.connectorId;

/** An acquirer that never answers a debit, throws on an authorisation and answers a credit with nonsense. */
const brokenAcquirer: Connector = {
  id: 'broken-acquirer',
  policy: DEFAULT_LIFECYCLE_POLICY,
  liveCapable: true,
  debit: () => new Promise(() => undefined),
  authorize: async () => {
    throw new TypeError('socket hang up');
  },
  credit: async () => ({ kind: 'approved', code: 'nonsense' }) as never,
  capture: async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }),
  refund: async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }),
  reverse: async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }),
};

for (const database of testDatabases()) {
  describe(`connector calls: timeouts and errors (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    before(async () => {
      const storage = await database.open();
      const connectors = createDefaultConnectors({ storage, clock: { now: () => new Date() }, ids: randomIds, extra: [brokenAcquirer] });
      t = await startTestApp(storage, { env: { LOG_LEVEL: 'warn', CONNECTOR_TIMEOUT_MS: '300' }, overrides: { connectors } });
      merchant = await t.createMerchant();
      const route = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ system: 'test', connector: brokenAcquirer.id, entity: merchant.entityId }) });
      assert.equal(route.statusCode, 201, route.body);
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it('a connector past CONNECTOR_TIMEOUT_MS is a timeout (its duration observed), one that throws or answers nonsense an error; each payment answers pending', async () => {
      const series = (operation: string, outcome: string) => ['gateway_connector_requests_total', { connector: brokenAcquirer.id, operation, outcome }] as const;
      const moved = await watchMetrics(t, {
        timeout: series('debit', 'timeout'),
        thrown: series('authorize', 'error'),
        nonsense: series('credit', 'error'),
        durations: ['gateway_connector_request_duration_seconds', { connector: brokenAcquirer.id, operation: 'debit' }],
        pending: ['gateway_payments_total', { connector: brokenAcquirer.id, outcome: 'pending' }],
      });
      for (const type of ['DB', 'PA', 'CD']) assert.equal(json(await cardPayment(t, merchant, type, '10.00', EXTERNAL)).result.code, '000.200.000');
      assert.deepEqual(await moved(), { timeout: 1, thrown: 1, nonsense: 1, durations: 1, pending: 3 });
      const scrape = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TEST_ADMIN_TOKEN) });
      // The timed-out call took at least CONNECTOR_TIMEOUT_MS (0.3 s): never in the 0.25 s bucket.
      assert.match(scrape.body, /^gateway_connector_request_duration_seconds_bucket\{le="0.25",connector="broken-acquirer",operation="debit"\} 0$/m);
      const sum = Number(/^gateway_connector_request_duration_seconds_sum\{connector="broken-acquirer",operation="debit"\} ([\d.e-]+)$/m.exec(scrape.body)?.[1]);
      assert.ok(sum >= 0.29, `observed ${sum} s`);
    });
  });

  describe(`ISO 8583 through the embedded acquirer host (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    let host: string;
    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn' } });
      merchant = await t.createMerchant();
      const iso = t.app.gateway.payments.connectors.registry.connectorById(ACQUIRER_HOST_CONNECTOR_ID) as Connector & { readonly host?: string };
      assert.ok(iso?.host, 'the test system embeds the acquirer host');
      host = iso.host;
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it('an EXTERNAL card payment signs links on, is counted with its connector, and a scrape reads the pool', async () => {
      const moved = await watchMetrics(t, {
        connected: ['gateway_iso8583_link_events_total', { host, event: 'connected' }],
        success: paymentSeries('DB', 'VISA', PLATFORM, 'success'),
        calls: ['gateway_connector_requests_total', { connector: PLATFORM, operation: 'debit', outcome: 'success' }],
      });
      const paid = json(await cardPayment(t, merchant, 'DB', '25.00', EXTERNAL));
      assert.equal(paid.result.code, '000.100.112', JSON.stringify(paid));
      const after = await moved();
      assert.ok(after.connected >= 1, `links signed on: ${after.connected}`);
      assert.equal(after.success, 1);
      assert.equal(after.calls, 1);
      const scrape = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TEST_ADMIN_TOKEN) });
      const open = Number(new RegExp(`^gateway_iso8583_connections\\{host="${host}"\\} (\\d+)$`, 'm').exec(scrape.body)?.[1]);
      assert.ok(open >= 1, scrape.body.split('\n').filter((line) => line.includes('iso8583')).join('\n'));
      assert.match(scrape.body, new RegExp(`^gateway_iso8583_messages_in_flight\\{host="${host}"\\} 0$`, 'm'));
    });

    it('an answer that may have moved money (a partial approval, 666.06) is reversed by advice: sent and acknowledged', async () => {
      const moved = await watchMetrics(t, {
        sent: ['gateway_reversal_advices_total', { connector: ACQUIRER_HOST_CONNECTOR_ID, outcome: 'sent' }],
        acknowledged: ['gateway_reversal_advices_total', { connector: ACQUIRER_HOST_CONNECTOR_ID, outcome: 'acknowledged' }],
        failed: ['gateway_reversal_advices_total', { outcome: 'failed' }],
        error: paymentSeries('DB', 'VISA', PLATFORM, 'error'),
      });
      assert.equal(json(await cardPayment(t, merchant, 'DB', '666.06', EXTERNAL)).result.code, '900.100.200');
      const worker = new JobWorker({
        storage: t.storage,
        clock: t.clock,
        logger: silentLogger,
        handlers: [reversalAdviceHandler({ registry: t.app.gateway.payments.connectors.registry, clock: t.clock, logger: silentLogger })],
        concurrency: 4,
        batchSize: 4,
        pollIntervalMs: 5,
        leaseMs: 60_000,
        sweepIntervalMs: 30_000,
      });
      while ((await worker.runOnce()) > 0);
      assert.deepEqual(await moved(), { sent: 1, acknowledged: 1, failed: 0, error: 1 });
    });

    it('a host that closes the connection without an answer (666.02): the link is counted disconnected, the call a timeout, the payment pending', async () => {
      const moved = await watchMetrics(t, {
        disconnected: ['gateway_iso8583_link_events_total', { host, event: 'disconnected' }],
        timeout: ['gateway_connector_requests_total', { connector: PLATFORM, operation: 'debit', outcome: 'timeout' }],
        pending: paymentSeries('DB', 'VISA', PLATFORM, 'pending'),
      });
      assert.equal(json(await cardPayment(t, merchant, 'DB', '666.02', EXTERNAL)).result.code, '000.200.000');
      const after = await moved();
      assert.ok(after.disconnected >= 1, `disconnected: ${after.disconnected}`);
      assert.deepEqual({ timeout: after.timeout, pending: after.pending }, { timeout: 1, pending: 1 });
    });
  });
}
