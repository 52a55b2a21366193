import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/load-config.js';

const readWorkerSettings = (env: Record<string, string>) => loadConfig(env).workers;

describe('worker settings', () => {
  it('has defaults with a lease longer than the webhook timeout', () => {
    const settings = readWorkerSettings({});
    assert.equal(settings.runInGateway, true);
    assert.equal(settings.webhookTimeoutMs, 30_000);
    assert.ok(settings.leaseMs > settings.webhookTimeoutMs);
    assert.ok(settings.sweepIntervalMs <= settings.leaseMs);
    assert.ok(Object.isFrozen(settings));
    assert.equal(settings.paymentJobConcurrency, 256, 'scheduled runs and status checks: a worker of their own, apart from the 64 webhook slots');
  });

  it('reads every variable', () => {
    const settings = readWorkerSettings({
      WORKERS_IN_GATEWAY: 'false', WORKER_CONCURRENCY: '8', WORKER_BATCH_SIZE: '4', WORKER_POLL_INTERVAL_MS: '50', WORKER_PAYMENT_CONCURRENCY: '32',
      WORKER_LEASE_MS: '5000', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1, ::1,10.1.0.0/16',
    });
    assert.deepEqual({ ...settings }, {
      runInGateway: false, concurrency: 8, batchSize: 4, pollIntervalMs: 50, leaseMs: 5000, sweepIntervalMs: 2500, webhookTimeoutMs: 1000, paymentJobConcurrency: 32,
      webhookTargets: { httpsOnly: false, allowedAddresses: ['127.0.0.1/32', '::1/128', '10.1.0.0/16'], localReceiversAllowed: true },
    });
  });

  it('allows no private address by default, and https only on the live system', () => {
    assert.deepEqual({ ...readWorkerSettings({}).webhookTargets }, { httpsOnly: false, allowedAddresses: [], localReceiversAllowed: true });
    const live = loadConfig({ GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true' }).workers.webhookTargets;
    assert.equal(live.httpsOnly, true);
    assert.equal(live.localReceiversAllowed, false, 'an entity\'s local receivers are never honoured on the live system');
  });

  it('refuses an allow-list entry that is not an address or range', () => {
    assert.throws(() => readWorkerSettings({ WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1,localhost,10.0.0.0/33' }), (error: unknown) =>
      error instanceof ConfigError && /WEBHOOK_ALLOWED_ADDRESSES: "localhost", "10.0.0.0\/33"/.test(error.message));
  });

  it('lists every bad variable at once', () => {
    try {
      readWorkerSettings({ WORKER_CONCURRENCY: '0', WORKERS_IN_GATEWAY: 'yes', WORKER_LEASE_MS: '2000', WEBHOOK_TIMEOUT_MS: '5000' });
      assert.fail('expected a ConfigError');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 3);
      assert.match(error.message, /WORKER_CONCURRENCY/);
      assert.match(error.message, /WORKERS_IN_GATEWAY/);
      assert.match(error.message, /WORKER_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS/);
    }
  });
});
