import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { systemClock } from '../../src/domain/ids.js';
import { testDatabases } from '../support/databases.js';
import type { Merchant } from '../support/payments.js';
import { deschedule, postSchedule, registrationWithInitialCit, scheduleWorker } from '../support/schedules.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';

/** Waits for a condition, polling; fails after a generous deadline (the machine may be busy). */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, deadlineMs: number): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await sleep(100);
  }
}

interface RunRow {
  fire_at: Date;
  created_at: Date;
}

for (const database of testDatabases()) {
  describe(`a 2-second schedule on the real clock, on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' }, overrides: { clock: systemClock } }, (app, created) => {
      t = app;
      merchant = created;
    });

    it('runs arrive on time, one per fire time, and DS stops them', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t, systemClock, 50);
      worker.start();
      try {
        const created = await postSchedule(t, merchant, registrationId, { 'job.expression': '0/2 * * * * ? *' });
        assert.equal(created.statusCode, 200, created.body);
        const id = created.json().id as string;
        const runs = () =>
          t.storage
            .query<RunRow>('SELECT r.fire_at, t.created_at FROM schedule_runs r JOIN transactions t ON t.id = r.transaction_id WHERE r.schedule_id = $1 ORDER BY r.fire_at', [id])
            .then((r) => r.rows);
        const made = await waitFor(runs, (rows) => rows.length >= 4, 30_000);
        assert.ok(made.length >= 4, `4 runs within 30 s, got ${made.length}`);
        for (const [i, run] of made.entries()) {
          assert.equal(run.fire_at.getTime() % 2000, 0, 'fire times are even seconds');
          if (i > 0) assert.equal(run.fire_at.getTime() - made[i - 1]!.fire_at.getTime(), 2000, 'no fire time is skipped or doubled');
          const lateMs = run.created_at.getTime() - run.fire_at.getTime();
          assert.ok(lateMs >= 0 && lateMs < 2000, `the payment is made within the 2 s after its fire time (${lateMs} ms)`);
        }
        const stopped = await deschedule(t, merchant, id);
        assert.equal(stopped.statusCode, 200, stopped.body);
        const stoppedAt = Date.now();
        await sleep(4_500);
        const after = await runs();
        assert.deepEqual(after.filter((r) => r.created_at.getTime() > stoppedAt + 1_000), [], 'no run after DS');
      } finally {
        await worker.stop();
      }
    });
  });
}
