import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Writable } from 'node:stream';
import type { Config } from './config/load-config.js';
import type { Clock, IdGenerator } from './domain/ids.js';
import { isLoopbackHost } from './config/network-addresses.js';
import { AuthFailureLimiter } from './http/auth-failures.js';
import { newRequestId } from './http/envelope.js';
import { loggerOptions } from './http/logging.js';
import { RequestLogController, registerRequestLog } from './http/request-log-line.js';
import { registerAuthentication } from './http/plugins/authentication.js';
import { registerUnknownParameterSetting } from './http/plugins/unknown-parameters.js';
import { frameworkErrorHandler, registerErrorHandling } from './http/plugins/error-handling.js';
import { clientErrorHandler } from './http/plugins/client-errors.js';
import { registerHandlerTimeout } from './http/plugins/handler-timeout.js';
import { registerSecurityHeaders, securityHeaders } from './http/plugins/security-headers.js';
import { fastifyTimeoutOptions, serverTimeoutOptions } from './http/transport-options.js';
import { registerTestModeRule, registerTransportSecurity } from './http/plugins/system-mode.js';
import { registerThrottling } from './http/plugins/throttling.js';
import { registerAdminRoutes } from './http/routes/admin.js';
import { registerAdminEntityAnswerRoutes } from './http/routes/admin-entity-answers.js';
import { registerWebhookAdminRoutes } from './http/routes/admin-webhooks.js';
import { registerRoutingAdminRoutes } from './http/routes/admin-routing.js';
import { registerHealthRoutes } from './http/routes/health.js';
import { registerRequestTracing } from './observability/tracing/http-plugin.js';
import { registerResultCodeRoutes } from './http/routes/result-codes.js';
import './http/types.js';
import { PrincipalResolver } from './operations/auth/resolve-principal.js';
import { createDefaultConnectors, createRouter } from './connectors/default-connectors.js';
import type { PoolLogger } from './connectors/iso8583/pool-log.js';
import { startEmbeddedAcquirerHost, type EmbeddedAcquirerHost } from './connectors/iso8583/embedded-host.js';
import type { AcquirerSettings } from './config/acquirer-settings.js';
import type { ConnectorRegistry } from './connectors/registry.js';
import type { Vault } from './domain/vault/index.js';
import type { LifecyclePolicy } from './domain/lifecycle/policy.js';
import { registerRegistrationRoutes } from './http/routes/registrations.js';
import { createEphemeralVault } from './operations/registrations/open-vault.js';
import type { NotificationSender } from './operations/webhooks/ports.js';
import type { PaymentDeps } from './operations/deps.js';
import { createPaymentWrites, DEFAULT_PAYMENT_WRITE_SETTINGS } from './operations/payments/payment-writes.js';
import { createSimulatedThreeDSecureServer } from './connectors/simulator/three-d-secure/server.js';
import { createEmv3dsServer } from './connectors/emv3ds-server/server.js';
import { RoutedThreeDSecureServer } from './connectors/emv3ds-server/routed.js';
import type { RouteTable } from './connectors/route-table.js';
import type { ThreeDSecureServer } from './connectors/three-d-secure.js';
import { RiskSettings } from './operations/risk/risk-settings.js';
import { registerRiskAdminRoutes } from './http/routes/admin-risk.js';
import { registerSettlementAdminRoutes } from './http/routes/admin-settlement.js';
import { registerConsoleUserAdminRoutes } from './http/routes/admin-console-users.js';
import { registerAuditAdminRoutes } from './http/routes/admin-audit.js';
import { registerVaultAdminRoutes } from './http/routes/admin-vault.js';
import { registerRiskRoutes } from './http/routes/risk.js';
import { ThreeDSecureSettings } from './operations/three-d-secure/requirement-settings.js';
import { EntityNames } from './operations/entity-names.js';
import { registerPaymentRoutes } from './http/routes/payments.js';
import { registerRedirectRoutes } from './http/routes/redirects.js';
import { registerThreeDSecureRoutes } from './http/routes/three-d-secure.js';
import { registerThreeDsServerRoutes } from './http/routes/three-ds-server.js';
import { registerQueryRoutes } from './http/routes/query.js';
import { registerScheduleRoutes } from './http/routes/schedules.js';
import { registerCheckoutRoutes } from './http/routes/checkouts.js';
import { registerDocsRoutes } from './http/routes/docs.js';
import { registerWidgetRoutes } from './http/routes/widget.js';
import { registerWalletSheetRoutes } from './http/routes/wallet-sheet.js';
import { registerReportRoutes } from './http/routes/reports.js';
import type { StaleReads, Storage } from './storage/port.js';
import { leaderReads } from './storage/replica/replica-reads.js';
import { registerWriteNotes } from './http/plugins/note-writes.js';
import { GatewayMetrics } from './observability/metrics.js';
import { metricsObserver } from './observability/metrics-observer.js';
import { sampleStorageGauges } from './observability/storage-gauges.js';
import { noObserver, type Observer } from './observability/observer.js';
import { registerRequestMetrics } from './http/plugins/request-metrics.js';
import { registerMetricsRoute } from './http/routes/metrics.js';
import { createReadinessProbe, type ReadinessProbe } from './observability/health/readiness-probe.js';
import { sampleIso8583Pools } from './observability/iso8583-gauges.js';
import { registerConsole } from './console/console-plugin.js';
import { CONSOLE_AREAS } from './console/areas.js';
import { RequestLogWriter } from './operations/request-log/request-log-writer.js';
import { registerApiRequestLog } from './http/plugins/api-request-log.js';

export interface AppOptions {
  readonly config: Config;
  readonly storage: Storage;
  /** The reads that tolerate a bounded staleness (DATABASE_READ_URL); absent: all on storage. */
  readonly reads?: StaleReads | undefined;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly buildNumber: string;
  /** Guards /admin; undefined disables the administration API. */
  readonly adminToken: string | undefined;
  readonly redis?: Redis | undefined;
  /** Where log lines go; stdout when absent. Tests capture them here. */
  readonly logStream?: Writable | undefined;
  readonly https?: { readonly cert: Buffer; readonly key: Buffer } | undefined;
  /** The connectors payments go to; the simulator and the test-platform stub when absent. */
  readonly connectors?: ConnectorRegistry | undefined;
  /** Sends webhook test notifications from the admin API; HTTP with WEBHOOK_TIMEOUT_MS when absent. */
  readonly notificationSender?: NotificationSender | undefined;
  /** main.ts passes the configured vault; absent: a key that lives only as long as the process (tests, benchmarks). */
  readonly vault?: Vault | undefined;
  /** The process's metrics (main.ts); absent: the app makes its own when METRICS_ENABLED (tests). */
  readonly metrics?: GatewayMetrics | undefined;
  /** What a scrape answers: the whole node's metrics with GATEWAY_PROCESSES > 1; absent: this process's. */
  readonly nodeMetricsText?: (() => Promise<string>) | undefined;
}

export interface AppDeps extends AppOptions {
  readonly reads: StaleReads;
  readonly principals: PrincipalResolver;
  readonly payments: PaymentDeps;
  /** Failed authentications per client address, one count for both listeners. */
  readonly authFailures: AuthFailureLimiter;
  /** Where the gateway reports what it does (metrics); noObserver with METRICS_ENABLED=false. */
  readonly observer: Observer;
  /** GET /health/ready's checks, and the drain a graceful shutdown starts (main.ts). */
  readonly readiness: ReadinessProbe;
  /** The merchants' API requests for the console's request log; undefined with REQUEST_LOG_ENABLED=false. */
  readonly requestLog: RequestLogWriter | undefined;
}

/** The routes one listener serves: all, all but /admin (with ADMIN_PORT), or only /admin. */
export type AppRole = 'all' | 'public' | 'admin';

function closeConnectors(connectors: readonly object[]): void {
  for (const connector of connectors) (connector as { close?: () => void }).close?.();
}

function cutoffPolicy(config: Config): Partial<LifecyclePolicy> {
  return {
    ...(config.reversalCutoffMinutes !== undefined ? { reversalCutoffMinutes: config.reversalCutoffMinutes } : {}),
    ...(config.captureCutoffMinutes !== undefined ? { captureCutoffMinutes: config.captureCutoffMinutes } : {}),
  };
}

/**
 * The 3-D Secure server: with THREE_DS_SERVER_DS_URL the gateway's own (the EMV 3DS protocol to
 * that directory, on either system: a live system's rehearsal points it at the emulator); else
 * the simulated directory and ACS, on the test system only (issue 14: never live).
 */
function threeDSecureServerOf(options: Pick<AppOptions, 'config' | 'clock' | 'ids'> & { readonly logger?: PoolLogger | undefined }): ThreeDSecureServer | undefined {
  const { config } = options;
  if (config.threeDsServer) return createEmv3dsServer({ ...emv3dsServerDeps(options), settings: config.threeDsServer });
  return config.system === 'test' ? createSimulatedThreeDSecureServer() : undefined;
}

function emv3dsServerDeps(options: Pick<AppOptions, 'config' | 'clock' | 'ids'> & { readonly logger?: PoolLogger | undefined }) {
  const { config } = options;
  const gatewayBaseUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
  return { clock: options.clock, ids: options.ids, gatewayBaseUrl, publicUrl: config.publicUrl, logger: options.logger, methodTimeoutMs: config.threeDsMethodTimeoutMs };
}

/**
 * The 3-D Secure server as the payments see it: the 3DS server routes choose the directory of a
 * payment they serve (docs/three-d-secure.md, "3DS server routes"); threeDSecureServerOf's server
 * takes the others.
 */
function routedThreeDSecureServer(options: Parameters<typeof threeDSecureServerOf>[0], routes: RouteTable, merchantOf: (entityId: string) => Promise<string | null>): ThreeDSecureServer {
  const { config } = options;
  return new RoutedThreeDSecureServer({ system: config.system, routes, merchantOf, fallback: threeDSecureServerOf(options), base: config.threeDsServer, server: emv3dsServerDeps(options) });
}

/** The payment operations' deps: the gateway's, and a worker's that makes scheduled runs. */
export function paymentDeps(
  options: Pick<AppOptions, 'config' | 'storage' | 'clock' | 'ids' | 'connectors' | 'vault'> & { readonly logger?: PoolLogger; readonly observer?: Observer },
  acquirer: AcquirerSettings | undefined = options.config.acquirer,
): PaymentDeps {
  const { storage, clock, ids, logger } = options;
  const system = options.config.system;
  const registry = options.connectors ?? createDefaultConnectors({ storage, clock, ids, policy: cutoffPolicy(options.config), acquirer, system, logger, observer: options.observer, externalCardsWithoutHost: 'refuse' });
  const entityNames = new EntityNames(storage);
  const observe = options.observer ?? noObserver;
  const merchantOf = (id: string) => entityNames.merchantOf(id);
  // Route credentials are opened with the deps' vault at the time of use (tests replace it after the build).
  const router = createRouter({ storage, clock, system, registry, openCredentials: (context, sealed) => deps.vault.open(context, sealed), merchantOf, observer: options.observer });
  const deps: PaymentDeps = {
    storage,
    clock,
    ids,
    system,
    connectors: router,
    connectorTimeoutMs: options.config.resolution.connectorTimeoutMs,
    entityNames,
    vault: options.vault ?? createEphemeralVault({ storage, clock, ids }),
    writes: createPaymentWrites(storage.groupWrites ?? storage, DEFAULT_PAYMENT_WRITE_SETTINGS, observe),
    webhookTargets: options.config.workers.webhookTargets,
    threeDSecure: routedThreeDSecureServer(options, router.routes, merchantOf),
    threeDSecureSettings: new ThreeDSecureSettings(storage, clock),
    redirectExpiryMs: options.config.resolution.redirectExpiryMs,
    challengeTimeoutMs: options.config.threeDsChallengeTimeoutMs,
    riskSettings: new RiskSettings(storage, clock, (id) => entityNames.merchantOf(id)),
    observe,
  };
  return deps;
}

/** The app's metrics: the process's (main.ts), or its own for an app built alone; none when turned off. */
function metricsOf(options: AppOptions): Pick<AppDeps, 'metrics' | 'nodeMetricsText' | 'observer'> {
  if (!options.config.metrics.enabled) return { metrics: undefined, nodeMetricsText: undefined, observer: noObserver };
  const metrics = options.metrics ?? new GatewayMetrics();
  metrics.describeBuild(options.buildNumber, options.config.system);
  sampleStorageGauges(metrics, options.storage, options.clock);
  return { metrics, nodeMetricsText: options.nodeMetricsText ?? (() => metrics.text()), observer: metricsObserver(metrics, { entities: options.config.metrics.entities }) };
}

function appDeps(options: AppOptions, logger: PoolLogger, acquirer: AcquirerSettings | undefined): AppDeps {
  const { config, clock, redis } = options;
  const observed = metricsOf(options);
  const payments = paymentDeps({ ...options, logger, observer: observed.observer }, acquirer);
  if (observed.metrics) sampleIso8583Pools(observed.metrics, () => payments.connectors.registry.connectors);
  return {
    ...options,
    ...observed,
    reads: options.reads ?? leaderReads(options.storage),
    principals: new PrincipalResolver(options.storage, clock),
    payments,
    authFailures: new AuthFailureLimiter({ maxFailures: config.authFailuresMax, windowMs: config.authFailureWindowMs, clock, redis }),
    requestLog: config.requestLog.enabled ? requestLogWriter(options, logger) : undefined,
    readiness: createReadinessProbe({ storage: options.storage, redis, connectors: () => payments.connectors.registry.connectors, checkTimeoutMs: config.health.checkTimeoutMs, jobsInGateway: config.workers.runInGateway }),
  };
}

function requestLogWriter(options: AppOptions, logger: PoolLogger): RequestLogWriter {
  return new RequestLogWriter(options.storage, undefined, {
    onWriteFailed: (error, lost) => logger.warn({ err: { type: (error as Error).name }, lost }, 'request log batch not written; those requests are missing from the console'),
  });
}

function registerAdminApi(app: FastifyInstance, options: AppOptions): void {
  registerAdminRoutes(app);
  registerAdminEntityAnswerRoutes(app);
  registerWebhookAdminRoutes(app, options.notificationSender ? { sender: options.notificationSender } : {});
  registerRoutingAdminRoutes(app);
  registerRiskAdminRoutes(app);
  registerSettlementAdminRoutes(app);
  registerConsoleUserAdminRoutes(app);
  registerAuditAdminRoutes(app);
  registerVaultAdminRoutes(app);
}

function registerPublicApi(app: FastifyInstance): void {
  registerHealthRoutes(app);
  registerResultCodeRoutes(app);
  registerPaymentRoutes(app);
  registerRedirectRoutes(app);
  registerThreeDSecureRoutes(app);
  registerThreeDsServerRoutes(app);
  registerRegistrationRoutes(app);
  registerQueryRoutes(app);
  registerScheduleRoutes(app);
  registerCheckoutRoutes(app);
  registerDocsRoutes(app);
  registerRiskRoutes(app);
  registerWidgetRoutes(app);
  registerWalletSheetRoutes(app);
  registerReportRoutes(app);
}

/**
 * Builds the whole HTTP application; never listens, so tests drive it with inject(). With
 * ADMIN_PORT it leaves /admin out: buildAdminApp serves it on a listener of its own.
 */
export async function buildApp(options: AppOptions, role: AppRole = options.config.adminListener ? 'public' : 'all'): Promise<FastifyInstance> {
  const shared = 'principals' in options;
  const embedded = !shared && options.connectors === undefined && embedsAcquirerHost(options.config)
    ? await startEmbeddedAcquirerHost({ clock: () => options.clock.now(), connectorTimeoutMs: options.config.resolution.connectorTimeoutMs })
    : undefined;
  try {
    return await assembleApp(options, role, embedded);
  } catch (error) {
    await embedded?.close();
    throw error;
  }
}

/**
 * testMode=EXTERNAL exercises the real ISO 8583 connector: without ACQUIRER_HOST_URL on the test
 * system, the gateway runs the emulator itself, in the one process all others reach: a single
 * gateway process in itself, GATEWAY_PROCESSES > 1 in the cluster's primary (main.ts), which hands
 * it to the processes as ACQUIRER_HOST_URL. Two emulators would each hold a ledger of their own (a
 * refund answered "unknown original" by another process's host), so where another program takes
 * part (WORKERS_IN_GATEWAY=false: `npm run worker`) EXTERNAL card payments are refused instead
 * (600.200.700, default-connectors.ts).
 */
export function embedsAcquirerHost(config: Config, role: 'process' | 'primary' = 'process'): boolean {
  const processes = role === 'primary' ? config.gatewayProcesses > 1 : config.gatewayProcesses === 1;
  return processes && config.system === 'test' && config.acquirer === undefined && config.workers.runInGateway;
}

async function assembleApp(options: AppOptions, role: AppRole, embedded: EmbeddedAcquirerHost | undefined): Promise<FastifyInstance> {
  const { config } = options;
  const security = securityHeaders(config.system);
  const app = Fastify({
    logger: { ...loggerOptions(config.logLevel), ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId: newRequestId,
    logController: new RequestLogController(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxyTls ? [...config.trustedProxies] : false,
    ...fastifyTimeoutOptions(config.httpTimeouts),
    http: serverTimeoutOptions(config.httpTimeouts),
    clientErrorHandler: clientErrorHandler(config.httpTimeouts, security),
    frameworkErrors: frameworkErrorHandler(security),
    ...(options.https ? { https: { cert: options.https.cert, key: options.https.key, ...serverTimeoutOptions(config.httpTimeouts) } } : {}),
  }) as unknown as FastifyInstance;
  app.decorate('gateway', 'principals' in options ? (options as AppDeps) : appDeps(options, app.log, config.acquirer ?? embedded?.settings));

  // First, so that every later hook runs inside the request's span (tracing on only).
  registerRequestTracing(app);
  registerRequestLog(app);
  registerErrorHandling(app);
  if (app.gateway.metrics) registerRequestMetrics(app, app.gateway.metrics);
  registerHandlerTimeout(app, config.httpTimeouts.handlerTimeoutMs);
  registerSecurityHeaders(app, config.system);
  // The API speaks application/x-www-form-urlencoded only; anything else is a 415.
  app.removeAllContentTypeParsers();
  await app.register(formbody);
  await registerThrottling(app, { maxRequests: config.throttleMaxRequests, windowMs: config.throttleWindowMs, redis: options.redis });
  registerTransportSecurity(app, config, { loopbackOnly: role === 'admin' && isLoopbackHost(config.adminListener?.host ?? '') });
  registerAuthentication(app);
  registerUnknownParameterSetting(app);
  registerTestModeRule(app, config);

  if (role !== 'public') registerAdminApi(app, options);
  if (role !== 'admin' && app.gateway.requestLog) registerApiRequestLog(app, app.gateway.requestLog);
  if (role !== 'admin') registerWriteNotes(app);
  if (role !== 'admin') registerPublicApi(app);
  if (servesConsole(config, role)) await registerConsole(app, CONSOLE_AREAS);
  // On the admin listener when there is one; else on the one listener, behind the token or METRICS_ALLOW_FROM.
  if (role !== 'public') registerMetricsRoute(app, role === 'admin' ? 'admin' : 'public');
  // Connectors holding connections (the ISO 8583 pool) close with the app; the admin app shares them and leaves them be.
  if (role !== 'admin') {
    app.addHook('onClose', async () => {
      closeConnectors(app.gateway.payments.connectors.registry.connectors);
      closeConnectors(app.gateway.payments.threeDSecure ? [app.gateway.payments.threeDSecure] : []);
      await app.gateway.requestLog?.close();
      // After the connector's pool: the embedded host's listener goes with the app that started it.
      await embedded?.close();
    });
  }
  return app;
}

/** CONSOLE_LISTENER: the console on the public listener (or the only one), on the admin listener only, or nowhere. */
function servesConsole(config: Config, role: AppRole): boolean {
  const listener = config.console.listener;
  if (listener === 'off') return false;
  return listener === 'admin' ? role !== 'public' : role !== 'admin';
}

/**
 * The administration API on a listener of its own (ADMIN_PORT), over the same deps as `app`:
 * a token revoked there leaves app's cache at once, and failures count once for both.
 */
export function buildAdminApp(app: FastifyInstance): Promise<FastifyInstance> {
  return buildApp(app.gateway, 'admin');
}
