import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JobHandler, JobResult } from '../../../src/jobs/job-types.js';
import { runOutcomeOf, type FinishedJob } from '../../../src/jobs/write-outcomes.js';

const handler: JobHandler = { kind: 'deliver-webhook', start: () => [] };
const job = (failureCount: number) => ({ id: '1', kind: 'deliver-webhook', payload: {}, runAt: new Date(0), failureCount, createdAt: new Date(0) });
const ran = (result: JobResult<unknown>, failureCount = 0): FinishedJob => ({ job: job(failureCount), handler, ok: true, result });
const failed = (failureCount: number): FinishedJob => ({ job: job(failureCount), handler, ok: false, error: new Error('boom') });

describe('how a job run counts in gateway_job_runs_total', () => {
  const table: [name: string, entry: FinishedJob, outcome: string][] = [
    ['finished (leaves the queue)', ran({}), 'done'],
    ['planned to run again (a webhook\'s next attempt)', ran({ runAgainAt: new Date(1) }), 'retry'],
    ['a recurring sweep that planned its next round', ran({ runAgainAt: new Date(1), outcome: 'done' }), 'done'],
    ['a delivery whose retries ran out', ran({ outcome: 'given_up' }), 'given_up'],
    ['the first failure', failed(0), 'retry'],
    ['the 24th failure of 25', failed(23), 'retry'],
    ['the 25th failure: parked', failed(24), 'given_up'],
  ];
  for (const [name, entry, outcome] of table) it(`${name} → ${outcome}`, () => assert.equal(runOutcomeOf(entry, 25), outcome));
});
