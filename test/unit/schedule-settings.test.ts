import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';

describe('schedule settings', () => {
  it('defaults: UTC, catch up once, missed after 5 minutes, three retries after 1, 2 and 3 days, late after a minute', () => {
    assert.deepEqual(loadConfig({}).schedules, { defaultTimeZone: 'UTC', catchUp: 'once', missedAfterMs: 300_000, retryDelaysMs: [86_400_000, 172_800_000, 259_200_000], lateAfterMs: 60_000 });
  });
  it('reads every variable', () => {
    const schedules = loadConfig({ SCHEDULE_TIME_ZONE: 'Europe/Berlin', SCHEDULE_CATCH_UP: 'skip', SCHEDULE_MISSED_AFTER_MS: '60000', SCHEDULE_RETRY_DELAYS_MINUTES: '0.5,60', SCHEDULE_LATE_SECONDS: '5' }).schedules;
    assert.deepEqual(schedules, { defaultTimeZone: 'Europe/Berlin', catchUp: 'skip', missedAfterMs: 60_000, retryDelaysMs: [30_000, 3_600_000], lateAfterMs: 5_000 });
    assert.deepEqual(loadConfig({ SCHEDULE_RETRY_DELAYS_MINUTES: 'none' }).schedules.retryDelaysMs, []);
  });
  for (const [name, value] of [['SCHEDULE_TIME_ZONE', 'Mars/Olympus'], ['SCHEDULE_CATCH_UP', 'twice'], ['SCHEDULE_MISSED_AFTER_MS', '10'], ['SCHEDULE_RETRY_DELAYS_MINUTES', '1,x'], ['SCHEDULE_LATE_SECONDS', '0']] as const) {
    it(`refuses ${name}=${value}`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (error: unknown) => error instanceof ConfigError && error.message.includes(name));
    });
  }
});
