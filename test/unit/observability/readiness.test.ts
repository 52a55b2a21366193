import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/load-config.js';
import { bounded, singleFlight } from '../../../src/observability/health/checks.js';
import { stopBoundMs } from '../../../src/observability/health/graceful-shutdown.js';
import { decideReadiness, heartbeatState, linksState, migrationsState } from '../../../src/observability/health/readiness.js';

describe('the readiness decision', () => {
  const cases: ReadonlyArray<readonly [string, Record<string, string>, boolean, number, string]> = [
    ['every check ok', { database: 'ok', migrations: 'ok', 'job-worker': 'ok' }, false, 200, 'ok'],
    ['no checks at all', {}, false, 200, 'ok'],
    ['one check failing', { database: 'ok', migrations: 'behind: 033 applied, 034 expected' }, false, 503, 'not ready'],
    ['a timed-out check', { database: 'timed out after 2000 ms', migrations: 'ok' }, false, 503, 'not ready'],
    ['draining with every check ok', { database: 'ok' }, true, 503, 'draining'],
    ['draining with a failing check', { database: 'unavailable' }, true, 503, 'draining'],
  ];
  for (const [name, checks, draining, status, body] of cases) {
    it(`${name}: ${status} ${body}`, () => {
      const report = decideReadiness(checks, draining);
      assert.equal(report.ready ? 200 : 503, status);
      assert.equal(report.body.status, body);
      assert.deepEqual(report.body.checks, draining ? undefined : checks, 'every check is named with its state, except while draining');
    });
  }
});

describe('migrations at head', () => {
  const shipped = [1, 2, 3, 16, 33, 34];
  const cases: ReadonlyArray<readonly [string, number[], string]> = [
    ['all applied', [1, 2, 3, 16, 33, 34], 'ok'],
    ['applied in another order', [34, 1, 33, 2, 16, 3], 'ok'],
    ['the newest missing', [1, 2, 3, 16, 33], 'behind: 033 applied, 034 expected'],
    ['two missing', [1, 2, 3, 16], 'behind: 016 applied, 033, 034 expected'],
    ['a gap in the middle', [1, 2, 3, 33, 34], 'behind: 034 applied, 016 expected'],
    ['none applied', [], 'behind: none applied, 001, 002, 003, 016, 033, 034 expected'],
    ['one from a newer build (passes, noted)', [1, 2, 3, 16, 33, 34, 35], 'ok (ahead: 035 applied, unknown to this build)'],
    ['behind wins over ahead', [1, 2, 3, 16, 33, 999], 'behind: 033 applied, 034 expected'],
  ];
  for (const [name, applied, state] of cases) {
    it(`${name}: ${state}`, () => assert.equal(migrationsState(applied, shipped), state));
  }
});

describe('the job worker heartbeat', () => {
  const cases: ReadonlyArray<readonly [string, number | undefined, string]> = [
    ['a beat just now', 0, 'ok'],
    ['a beat at the limit', 15_000, 'ok'],
    ['a beat past the limit', 15_001, 'last heartbeat 15 s ago (limit 15 s)'],
    ['an hour old', 3_600_000, 'last heartbeat 3600 s ago (limit 15 s)'],
    ['no worker at all', undefined, 'no job worker heartbeat'],
  ];
  for (const [name, ageMs, state] of cases) {
    it(`${name}: ${state}`, () => assert.equal(heartbeatState(ageMs, 15_000), state));
  }
  it('with the workers apart (WORKERS_IN_GATEWAY=false) a silent fleet is reported and passes', () => {
    assert.equal(heartbeatState(undefined, 15_000, false), 'ok (not counted, the workers run apart: no job worker heartbeat)');
    assert.equal(heartbeatState(20_000, 15_000, false), 'ok (not counted, the workers run apart: last heartbeat 20 s ago (limit 15 s))');
    assert.equal(heartbeatState(1_000, 15_000, false), 'ok');
    assert.equal(decideReadiness({ database: 'ok', 'job-worker': heartbeatState(undefined, 15_000, false) }, false).ready, true);
    assert.equal(decideReadiness({ database: 'ok', 'job-worker': heartbeatState(undefined, 15_000, true) }, false).ready, false);
  });
});

describe('ISO 8583 links', () => {
  const cases: ReadonlyArray<readonly [number, number, string]> = [
    [4, 4, 'ok'],
    [1, 4, 'ok'],
    [0, 4, 'no link signed on (0 of 4)'],
    [0, 1, 'no link signed on (0 of 1)'],
  ];
  for (const [signedOn, size, state] of cases) {
    it(`${signedOn} of ${size} signed on: ${state}`, () => assert.equal(linksState(signedOn, size), state));
  }
});

describe('a bounded check', () => {
  it('a check that hangs has timed out after the bound, not when it ends', async () => {
    const startedAt = Date.now();
    const state = await bounded(() => new Promise(() => undefined), 50)();
    assert.equal(state, 'timed out after 50 ms');
    assert.ok(Date.now() - startedAt < 5_000);
  });

  it('a check that throws is unavailable, without the error\'s words (they may name a host)', async () => {
    assert.equal(await bounded(async () => { throw new Error('connect ECONNREFUSED db.internal:5432 user=gateway'); }, 1_000)(), 'unavailable');
  });

  it('a check that answers in time gives its own state', async () => {
    assert.equal(await bounded(async () => 'no link signed on (0 of 2)', 1_000)(), 'no link signed on (0 of 2)');
  });

  it('probes arriving while one runs share it: a hung database gets one query, not one per probe', async () => {
    let started = 0;
    let finish: (state: string) => void = () => undefined;
    const check = singleFlight(() => {
      started += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    });
    const first = check();
    const second = check();
    assert.equal(started, 1);
    finish('ok');
    assert.deepEqual(await Promise.all([first, second]), ['ok', 'ok']);
    void check();
    assert.equal(started, 2, 'once answered, the next probe checks again');
    finish('ok');
  });
});

describe('health and shutdown settings', () => {
  it('defaults: checks within 2 s, a 5 s drain, 30 s for requests in flight', () => {
    assert.deepEqual({ ...loadConfig({}).health }, { checkTimeoutMs: 2_000, drainMs: 5_000, graceMs: 30_000 });
  });

  it('reads every variable, 0 allowed for the drain and the grace', () => {
    assert.deepEqual({ ...loadConfig({ HEALTH_CHECK_TIMEOUT_MS: '500', SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_GRACE_MS: '0' }).health }, { checkTimeoutMs: 500, drainMs: 0, graceMs: 0 });
  });

  for (const [name, value] of [['HEALTH_CHECK_TIMEOUT_MS', '0'], ['HEALTH_CHECK_TIMEOUT_MS', '2s'], ['SHUTDOWN_DRAIN_MS', '-1'], ['SHUTDOWN_GRACE_MS', '600001']] as const) {
    it(`refuses ${name}=${value}`, () =>
      assert.throws(() => loadConfig({ [name]: value }), (error: unknown) => error instanceof ConfigError && error.message.includes(name)));
  }

  it('the cluster kills a process only past its drain, the longer of its grace and a webhook call, and a margin', () => {
    assert.equal(stopBoundMs({ drainMs: 5_000, graceMs: 30_000 }, 30_000), 40_000);
    assert.equal(stopBoundMs({ drainMs: 0, graceMs: 1_000 }, 30_000), 35_000);
    assert.equal(stopBoundMs({ drainMs: 2_000, graceMs: 60_000 }, 10_000), 67_000);
  });
});
