import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { buildAdminApp, buildApp, embedsAcquirerHost } from './app.js';
import { acquirerVariablesOf, startEmbeddedAcquirerHost } from './connectors/iso8583/embedded-host.js';
import { ConfigError, loadConfig, type Config } from './config/load-config.js';
import { localAdminToken, removeRuntimeRecord, runningGateway, writeRuntimeRecord } from './config/runtime-file.js';
import { randomIds, systemClock } from './domain/ids.js';
import { readBuildNumber } from './http/build-info.js';
import { ensureDemoMerchant } from './operations/admin/ensure-demo-merchant.js';
import { demoMerchantBanner, type DemoMerchantCredentials } from './operations/admin/demo-merchant-banner.js';
import { ensureDemoConsoleUser } from './operations/people/ensure-demo-console-user.js';
import { startWorkers } from './jobs/start-workers.js';
import { startGatewayHeartbeat } from './jobs/heartbeat.js';
import { settleDayDepsOf } from './jobs/settle-day.js';
import { startConfiguredSftp } from './sftp/sftp-server.js';
import { publicKeysOf } from './storage/repositories/sftp-keys.js';
import { loadVaultConfig, type VaultKeyConfig } from './config/vault-config.js';
import { masterKeyRingOf, openVault } from './operations/registrations/open-vault.js';
import { openMigratedStorage, openStaleReads, openStorage } from './storage/open-storage.js';
import { processIndex, runPrimary } from './cluster/primary.js';
import { loggerOptions } from './http/logging.js';
import { logUnroutedEntities } from './operations/routing/report-unrouted.js';
import { isListenError, listenFailure, portProblem } from './http/port-check.js';
import { processMetrics } from './observability/process-metrics.js';
import { shutDownGracefully, stopBoundMs } from './observability/health/graceful-shutdown.js';
import { startProcessTracing } from './observability/tracing/process-tracing.js';

async function readConfigOrExit(): Promise<{ config: Config; vaultKeys: VaultKeyConfig }> {
  try {
    const config = loadConfig(process.env);
    // Before anything touches DATA_DIR (the vault key below) or the database. A cluster worker
    // shares the primary's socket: the primary checked.
    if (!cluster.isWorker) exitIfCannotListen(await portProblem(config.host, config.port));
    return { config, vaultKeys: loadVaultConfig(process.env, config) };
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

function exitIfCannotListen(problem: string | undefined): void {
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

/** Redis answers in well under a millisecond; one that takes this long is treated as away. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

async function connectRedis(url: string | undefined): Promise<Redis | undefined> {
  if (!url) return undefined;
  // Loaded only when used: the client and its command table take about 25 MB of memory.
  const { Redis: RedisClient } = await import('ioredis');
  // Fail fast instead of queueing: throttling skips a store that does not answer. A Redis that
  // hangs (a partition) answers nothing at all: the command timeout bounds what each request waits.
  return new RedisClient(url, { connectTimeout: 1_000, commandTimeout: REDIS_COMMAND_TIMEOUT_MS, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
}

function printDemoMerchant(demo: DemoMerchantCredentials, baseUrl: string): void {
  // Straight to the terminal, not through the logger: a token must never reach a log line.
  process.stdout.write(demoMerchantBanner(demo, baseUrl));
}

/** The demo merchant's console person (test system, first start): where and how to sign in. */
function printDemoConsoleUser(person: { email: string; password: string } | undefined, config: Config, baseUrl: string, adminUrl: string | undefined): void {
  const listener = config.console.listener;
  if (!person || listener === 'off') return;
  const consoleUrl = `${listener === 'admin' && adminUrl ? adminUrl : baseUrl}/console`;
  // Straight to the terminal, not through the logger: a password must never reach a log line.
  process.stdout.write(`Console of the demo merchant (shown once):\n  open:     ${consoleUrl}\n  e-mail:   ${person.email}\n  password: ${person.password}\n\n`);
}

const schemeOf = (config: Config) => (config.tlsCertFile ? 'https' : 'http');

/** GATEWAY_PROCESSES > 1: prepare the database once, then let the cluster's primary run the processes. */
async function startPrimary(config: Config): Promise<void> {
  const logger = pino(loggerOptions(config.logLevel));
  const storage = await openMigratedStorage(config);
  const demo = config.system === 'test' ? await ensureDemoMerchant({ storage, clock: systemClock, ids: randomIds }) : undefined;
  const demoConsole = demo ? await ensureDemoConsoleUser({ storage, clock: systemClock, ids: randomIds }, demo.entityId) : undefined;
  if (config.system === 'live') await logUnroutedEntities(storage, logger);
  await storage.close();
  // It lives as long as the primary, which outlives every process it forks.
  const embedded = embedsAcquirerHost(config, 'primary') ? await startEmbeddedAcquirerHost({ clock: () => systemClock.now(), connectorTimeoutMs: config.resolution.connectorTimeoutMs, queryPort: true }) : undefined;
  if (embedded) logger.info({ port: embedded.host.port, queryPort: embedded.host.queryPort }, 'acquirer host emulator embedded for testMode=EXTERNAL');
  const metrics = processMetrics(config, readBuildNumber(process.env), 'primary');
  runPrimary({
    processes: config.gatewayProcesses,
    onRestart: () => metrics?.metrics.inc('processRestarts', {}),
    scheme: schemeOf(config),
    logger,
    // A process drains, lets requests and jobs finish, then exits; it is killed only past that bound.
    stopGraceMs: stopBoundMs(config.health, config.workers.webhookTimeoutMs),
    ...(embedded ? { env: acquirerVariablesOf(embedded) } : {}),
    onReady(url) {
      if (demo) printDemoMerchant(demo, url);
      printDemoConsoleUser(demoConsole, config, url, undefined);
      logger.info({ url, processes: config.gatewayProcesses }, 'gateway ready');
    },
  });
}

async function main(): Promise<void> {
  const { config, vaultKeys } = await readConfigOrExit();
  if (config.gatewayProcesses > 1 && cluster.isPrimary) return startPrimary(config);
  // One of several processes: the primary already migrated the database and made the demo merchant.
  const oneOfSeveral = cluster.isWorker;
  // Before the storage and the app are built: they are instrumented only when tracing is on.
  const tracing = await startProcessTracing(oneOfSeveral ? `gateway process ${processIndex(process.env)}` : 'gateway');
  const embedded = config.databaseUrl === undefined;
  if (embedded && runningGateway(config.dataDir)) {
    process.stderr.write(`another gateway process is using ${config.dataDir}; stop it or set DATA_DIR\n`);
    process.exit(1);
  }
  const storage = oneOfSeveral ? await openStorage(config) : await openMigratedStorage(config);
  const deps = { storage, clock: systemClock, ids: randomIds };
  const vault = openVault(deps, masterKeyRingOf(vaultKeys));
  const demo = config.system === 'test' && !oneOfSeveral ? await ensureDemoMerchant(deps) : undefined;
  const demoConsole = demo ? await ensureDemoConsoleUser(deps, demo.entityId) : undefined;
  const redis = await connectRedis(config.redisUrl);
  redis?.on('error', () => undefined);
  const https = config.tlsCertFile && config.tlsKeyFile
    ? { cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile) }
    : undefined;
  const adminToken = config.adminToken ?? (embedded ? localAdminToken(config.dataDir, true) : undefined);
  const buildNumber = readBuildNumber(process.env);
  const metrics = processMetrics(config, buildNumber, oneOfSeveral ? 'cluster-process' : 'alone');
  // The query API, reports and console searches read from DATABASE_READ_URL's replica when set.
  const reads = openStaleReads(config, storage);
  const app = await buildApp({ ...deps, reads, config, vault, buildNumber, adminToken, redis, https, ...metrics });
  if (config.system === 'live' && !oneOfSeveral) await logUnroutedEntities(storage, app.log);
  // The port was free a moment ago; a start that lost it since says so the same way.
  const address = await app.listen({ host: config.host, port: config.port }).catch(async (error: unknown) => {
    if (!isListenError(error)) throw error;
    await storage.close();
    exitIfCannotListen(listenFailure(config.host, config.port, error));
    throw error;
  });
  const admin = config.adminListener ? await buildAdminApp(app) : undefined;
  const adminUrl = config.adminListener && admin ? await admin.listen(config.adminListener) : undefined;
  if (embedded) writeRuntimeRecord(config.dataDir, { pid: process.pid, url: address, ...(adminUrl ? { adminUrl } : {}) });
  // Background jobs (webhook deliveries) run here unless WORKERS_IN_GATEWAY=false hands them to `npm run worker`.
  const runsJobs = config.workers.runInGateway && processIndex(process.env) === 0;
  const resolution = { connectors: app.gateway.payments.connectors, settings: config.resolution };
  const schedules = { payments: app.gateway.payments, settings: config.schedules };
  const settlement = settleDayDepsOf(config.settlement, app.gateway.payments);
  // Every gateway process, for the console's system status (a timer's write, off the request path).
  const gatewayHeartbeat = startGatewayHeartbeat(storage, app.log);
  const workers = runsJobs ? startWorkers({ storage, clock: systemClock, logger: app.log, settings: config.workers, resolution, schedules, settlement, checkoutCallbackSweepIntervalMs: config.checkouts.callbackSweepIntervalMs, observer: app.gateway.observer, requestLogRetentionDays: config.requestLog.retentionDays }) : undefined;
  // The merchants' reconciliation files (SFTP_PORT); one process serves them, this one unless
  // SFTP_IN_GATEWAY=false hands them to `npm run sftp` (src/sftp-main.ts).
  const servesSftp = config.settlement.sftp?.inGateway === true && processIndex(process.env) === 0;
  const sftp = servesSftp ? await startConfiguredSftp(config.settlement, { publicKeysOf: (id) => publicKeysOf(storage, id) }, app.log) : undefined;
  if (sftp) app.log.info({ sftpPort: sftp.port }, 'sftp server ready');
  if (demo) printDemoMerchant(demo, address);
  printDemoConsoleUser(demoConsole, config, address, adminUrl);
  // The last line of a start: supervisors and tests wait for it.
  app.log.info({ url: address, adminUrl }, oneOfSeveral ? 'gateway process ready' : 'gateway ready');

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Readiness turns 503 first; the listeners close after the drain (docs/operations.md).
    await shutDownGracefully({
      signal,
      logger: app.log,
      drain: app.gateway.readiness.drain,
      settings: config.health,
      listeners: admin ? [app, admin] : [app],
      async stopWork() {
        await workers?.stop();
        await gatewayHeartbeat.stop();
        await sftp?.close();
      },
      async release() {
        await reads.close();
        await storage.close();
        redis?.disconnect();
        // The spans of the last requests and jobs still queued for the exporter.
        await tracing?.shutdown();
        if (embedded) removeRuntimeRecord(config.dataDir);
      },
    });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main();
