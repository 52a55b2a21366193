import { silentLogger } from '../../src/jobs/job-types.js';
import { JobWorker } from '../../src/jobs/job-worker.js';
import { resolvePendingHandler, sweepPendingHandler } from '../../src/jobs/resolve-pending.js';
import { randomIds } from '../../src/domain/ids.js';
import type { TestApp } from './test-app.js';

/** The resolution jobs of a test app, driven one step at a time with the app's manual clock. */
export function resolutionWorker(t: TestApp): { drain(): Promise<void>; worker: JobWorker } {
  const deps = { storage: t.storage, clock: t.clock, ids: randomIds, logger: silentLogger, connectors: t.app.gateway.payments.connectors, settings: t.config.resolution };
  const worker = new JobWorker({
    storage: t.storage,
    clock: t.clock,
    handlers: [sweepPendingHandler(deps), resolvePendingHandler(deps)],
    logger: silentLogger,
    concurrency: 16,
    batchSize: 64,
    pollIntervalMs: 5,
    leaseMs: 60_000,
    sweepIntervalMs: 30_000,
  });
  return {
    worker,
    async drain() {
      while ((await worker.runOnce()) > 0);
    },
  };
}
