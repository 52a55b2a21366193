import { ConfigError, loadConfig, type Config } from './config/load-config.js';
import { paymentDeps } from './app.js';
import { loadVaultConfig, type VaultKeyConfig } from './config/vault-config.js';
import { randomIds, systemClock } from './domain/ids.js';
import { masterKeyRingOf, openVault } from './operations/registrations/open-vault.js';
import { jsonLogger } from './jobs/json-logger.js';
import { startWorkers } from './jobs/start-workers.js';
import { settleDayDepsOf } from './jobs/settle-day.js';
import type { WorkerSettings } from './config/worker-settings.js';
import { openMigratedStorage } from './storage/open-storage.js';
import { readBuildNumber } from './http/build-info.js';
import { processMetrics } from './observability/process-metrics.js';
import { metricsObserver } from './observability/metrics-observer.js';
import { noObserver } from './observability/observer.js';
import { listenForScrapes } from './observability/metrics-listener.js';
import { sampleIso8583Pools } from './observability/iso8583-gauges.js';
import { sampleStorageGauges } from './observability/storage-gauges.js';
import { startProcessTracing } from './observability/tracing/process-tracing.js';

/**
 * `npm run worker`: a process that only runs background jobs (webhook deliveries), next to any
 * number of gateways and other workers on the same PostgreSQL. The embedded database admits one
 * process, so there `npm start` runs the workers itself.
 */
function readSettingsOrExit(): { config: Config; settings: WorkerSettings; vaultKeys: VaultKeyConfig } {
  try {
    const config = loadConfig(process.env);
    return { config, settings: config.workers, vaultKeys: loadVaultConfig(process.env, config) };
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const { config, settings, vaultKeys } = readSettingsOrExit();
  if (config.databaseUrl === undefined) {
    process.stderr.write('npm run worker needs DATABASE_URL (PostgreSQL); on the embedded database `npm start` runs the workers\n');
    process.exit(1);
  }
  const logger = jsonLogger(config.logLevel, process.stdout, { name: 'worker' });
  const tracing = await startProcessTracing('worker');
  const storage = await openMigratedStorage(config);
  // The status queries of pending transactions go to the connectors the gateways route to.
  const deps = { storage, clock: systemClock, ids: randomIds };
  const vault = openVault(deps, masterKeyRingOf(vaultKeys));
  const metrics = processMetrics(config, readBuildNumber(process.env), 'alone')?.metrics;
  const observer = metrics ? metricsObserver(metrics, { entities: config.metrics.entities }) : noObserver;
  if (metrics) sampleStorageGauges(metrics, storage, systemClock);
  const scrapes = metrics && config.metrics.workerListener ? await listenForScrapes(metrics, config.metrics.workerListener) : undefined;
  if (scrapes) logger.info({ url: scrapes.url }, 'worker metrics listener ready');
  // Scheduled runs are payments: the worker pays through the same operations as the gateways.
  const payments = paymentDeps({ ...deps, config, vault, logger, observer });
  if (metrics) sampleIso8583Pools(metrics, () => payments.connectors.registry.connectors);
  const workers = startWorkers({
    storage,
    clock: systemClock,
    logger,
    settings,
    resolution: { connectors: payments.connectors, settings: config.resolution },
    schedules: { payments, settings: config.schedules },
    checkoutCallbackSweepIntervalMs: config.checkouts.callbackSweepIntervalMs,
    requestLogRetentionDays: config.requestLog.retentionDays,
    settlement: settleDayDepsOf(config.settlement, payments),
    observer,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await workers.stop();
    await scrapes?.close();
    await storage.close();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main();
