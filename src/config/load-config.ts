import { readBoolean, readEnum, readInteger, readOptional, readUrl, type Env } from './env-readers.js';
import { collectResolutionSettings, RESOLUTION_VARIABLES, type ResolutionSettings } from './resolution-settings.js';
import { collectHttpTimeouts, HTTP_TIMEOUT_VARIABLES, type HttpTimeouts } from './http-timeouts.js';
import { readTrustedProxies } from './network-addresses.js';
import { collectWorkerSettings, WORKER_VARIABLES, type WorkerSettings } from './worker-settings.js';
import { collectScheduleSettings, SCHEDULE_VARIABLES, type ScheduleSettings } from './schedule-settings.js';
import { CHECKOUT_VARIABLES, collectCheckoutSettings, type CheckoutSettings } from './checkout-settings.js';
import { ACQUIRER_VARIABLES, collectAcquirerSettings, type AcquirerSettings } from './acquirer-settings.js';
import { collectThreeDsServerSettings, readChallengeTimeoutMs, readThreeDsMethodTimeoutMs, THREE_DS_SERVER_VARIABLES, type ThreeDsServerSettings } from './three-ds-server-settings.js';
import { collectSettlementSettings, SETTLEMENT_VARIABLES, type SettlementSettings } from './settlement-settings.js';
import { collectMetricsSettings, METRICS_VARIABLES, type MetricsSettings } from './metrics-settings.js';
import { collectRequestLogSettings, REQUEST_LOG_VARIABLES, type RequestLogSettings } from './request-log-settings.js';
import { collectHealthSettings, HEALTH_VARIABLES, type HealthSettings } from './health-settings.js';
import { collectConsoleSettings, CONSOLE_VARIABLES, type ConsoleSettings } from './console-settings.js';
import { collectReadReplicaSettings, DATABASE_VARIABLES, readPoolMode, type DatabasePoolMode, type ReadReplicaSettings } from './database-settings.js';

/**
 * The gateway's configuration: parsed once from the environment, validated, typed and frozen.
 * Every bad variable is reported at once so an operator fixes them in one go.
 */
export type GatewaySystem = 'test' | 'live';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly host: string;
  readonly port: number;
  /** Absent: embedded PGlite under dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly system: GatewaySystem;
  readonly tlsCertFile: string | undefined;
  readonly tlsKeyFile: string | undefined;
  /** A proxy in front terminates TLS and sets X-Forwarded-Proto. */
  readonly trustProxyTls: boolean;
  /** With trustProxyTls: the proxies whose X-Forwarded-For and X-Forwarded-Proto are believed. */
  readonly trustedProxies: readonly string[];
  /** The gateway's address as shoppers' browsers reach it (redirect pages, return links); from each request when unset. */
  readonly publicUrl: string | undefined;
  readonly adminToken: string | undefined;
  /** /admin on a listener of its own; undefined serves it on the public listener. */
  readonly adminListener: { readonly host: string; readonly port: number } | undefined;
  readonly throttleMaxRequests: number;
  readonly throttleWindowMs: number;
  /** Failed authentications one client address may make per window before it gets 429. */
  readonly authFailuresMax: number;
  readonly authFailureWindowMs: number;
  readonly redisUrl: string | undefined;
  readonly logLevel: LogLevel;
  readonly bodyLimitBytes: number;
  readonly databasePoolSize: number;
  /** How long a statement waits for a reachable database leader (a failover) before it fails as unavailable. */
  readonly databaseFailoverWaitMs: number;
  /** `transaction` behind a pooler in transaction mode (PgBouncer): nothing may outlive a transaction. */
  readonly databasePoolMode: DatabasePoolMode;
  /** A streaming replica for stale-tolerant reads (DATABASE_READ_URL); undefined: every read is the leader's. */
  readonly readReplica: ReadReplicaSettings | undefined;
  /** HTTP processes sharing the port (node:cluster); more than 1 needs PostgreSQL. */
  readonly gatewayProcesses: number;
  /** Overrides every connector's own cut-offs; undefined keeps the connector's. */
  readonly reversalCutoffMinutes: number | undefined;
  readonly captureCutoffMinutes: number | undefined;
  readonly workers: WorkerSettings;
  /** Connector timeout, the resolution of pending transactions, idempotency leases. */
  readonly resolution: ResolutionSettings;
  /** Time zone, catch-up policy and retries of recurring schedules. */
  readonly schedules: ScheduleSettings;
  /** Lifetime, shopper result callback and id suffix of checkouts (the widget). */
  readonly checkouts: CheckoutSettings;
  readonly httpTimeouts: HttpTimeouts;
  /** The ISO 8583 acquirer host; undefined: none (testMode EXTERNAL answered by the stub). */
  readonly acquirer: AcquirerSettings | undefined;
  /** The EMV 3-D Secure directory server of the gateway's own 3DS server connector; undefined: none (the test system simulates). */
  readonly threeDsServer?: ThreeDsServerSettings | undefined;
  /** How long a protocol challenge (a default's or a route's) waits for its RReq: THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES. */
  readonly threeDsChallengeTimeoutMs: number;
  /** How long the gateway's 3DS Method page waits for the ACS's notification (every 3DS server, routes too). */
  readonly threeDsMethodTimeoutMs?: number | undefined;
  /** The daily settlement run, its files and the built-in SFTP server. */
  readonly settlement: SettlementSettings;
  readonly metrics: MetricsSettings;
  /** The merchants' API requests kept for the console's request log. */
  readonly requestLog: RequestLogSettings;
  /** Readiness checks' timeout and the graceful shutdown's drain and grace. */
  readonly health: HealthSettings;
  /** Where the console is served, its sessions' lifetimes, its sign-in back-off. */
  readonly console: ConsoleSettings;
}

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** One documented variable; docs/configuration in the README lists the same names. */
export const CONFIG_VARIABLES = [
  ['HOST', '127.0.0.1', 'Address the HTTP server binds to.'],
  ['PORT', '8080', 'TCP port of the HTTP server (1-65535).'],
  ['DATABASE_URL', '(unset)', 'postgres://… to use PostgreSQL; unset to use the embedded PGlite database under DATA_DIR.'],
  ['DATA_DIR', './data', 'Folder of the embedded database (only without DATABASE_URL).'],
  ['DATABASE_POOL_SIZE', '10', 'Connections to PostgreSQL of one gateway process (at least 2 are opened): 3 of them (1 when below 6) carry the grouped payment writes, the rest serve everything else.'],
  ['DATABASE_FAILOVER_WAIT_MS', '15000', 'While no PostgreSQL leader can be reached (a failover, a restart), a statement waits up to this long for one, trying again with short pauses, before the request answers 503 with 999.999.888; 0 fails at the first refused connection. The default is a little longer than a Patroni failover with the timing of ops/ha (10-13 s), so a request caught by a leader\'s death waits for the new one instead of failing just before it arrives. Also a statement the server refused as read-only (a replica: 25006) is tried again on a new connection within it. Must be shorter than HANDLER_TIMEOUT_MS.'],
  ...DATABASE_VARIABLES,
  ['GATEWAY_PROCESSES', '1', 'Gateway processes serving the same port (one per core is the usual choice); more than 1 needs DATABASE_URL, and REDIS_URL to share throttling between them.'],
  ['GATEWAY_SYSTEM', 'test', '`test` (simulators, testMode allowed) or `live` (testMode rejected, TLS required).'],
  ['TLS_CERT_FILE', '(unset)', 'PEM certificate; with TLS_KEY_FILE the server speaks HTTPS.'],
  ['TLS_KEY_FILE', '(unset)', 'PEM private key for TLS_CERT_FILE.'],
  ['TRUST_PROXY_TLS', 'false', '`true` when a proxy terminates TLS; requests must then carry X-Forwarded-Proto: https from a TRUSTED_PROXIES address on the live system.'],
  ['PUBLIC_URL', '', 'The gateway\'s address as shoppers\' browsers reach it (e.g. https://pay.example.com), used in redirect and return links; unset: the address each request reached. Set it behind a proxy or CDN.'],
  ['TRUSTED_PROXIES', '127.0.0.0/8,::1', 'With TRUST_PROXY_TLS: comma-separated addresses or CIDR blocks of the proxies whose X-Forwarded-Proto and X-Forwarded-For are believed.'],
  ['ADMIN_TOKEN', '(unset)', 'Bearer token of the administration API (/admin/…). Unset: a random one is written to DATA_DIR/admin-token for the local command line.'],
  ['ADMIN_HOST', '127.0.0.1', 'Address the administration listener binds to (with ADMIN_PORT).'],
  ['ADMIN_PORT', '(unset)', 'TCP port of a listener serving only /admin/… (0 picks a free one); the public listener then answers 404 there. Unset: /admin is on PORT.'],
  ['THROTTLE_MAX_REQUESTS', '1000', 'Requests one access token may make per window.'],
  ['THROTTLE_WINDOW_MS', '1000', 'Length of the throttling window in milliseconds.'],
  ['AUTH_FAILURE_MAX_PER_WINDOW', '50', 'Missing, unknown or wrong tokens one client address may send per window; above it, 429.'],
  ['AUTH_FAILURE_WINDOW_MS', '60000', 'Length of the failed-authentication window in milliseconds.'],
  ['REDIS_URL', '(unset)', 'redis://… to share throttling state between gateway processes; unset keeps it in memory.'],
  ['LOG_LEVEL', 'info', 'fatal, error, warn, info, debug, trace or silent.'],
  ['BODY_LIMIT_BYTES', '1048576', 'Largest request body accepted; larger bodies get HTTP 413.'],
  ['REVERSAL_CUTOFF_MINUTES', '(connector)', 'Minutes after a PA, DB or CD during which it may be reversed (RV); unset keeps each connector\'s own (the simulator: 1440).'],
  ['CAPTURE_CUTOFF_MINUTES', '(connector)', 'Minutes after a PA during which it may be captured (CP); unset keeps each connector\'s own (the simulator: 10080).'],
  ...WORKER_VARIABLES,
  ...RESOLUTION_VARIABLES,
  ...SCHEDULE_VARIABLES,
  ...CHECKOUT_VARIABLES,
  ...SETTLEMENT_VARIABLES,
  ...HTTP_TIMEOUT_VARIABLES,
  ...ACQUIRER_VARIABLES,
  ...THREE_DS_SERVER_VARIABLES,
  ...METRICS_VARIABLES,
  ...REQUEST_LOG_VARIABLES,
  ...HEALTH_VARIABLES,
  ...CONSOLE_VARIABLES,
] as const;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

// A cut-off of up to a year; unset means the connector decides.
function readOptionalMinutes(env: Env, name: string, problems: string[]): number | undefined {
  return readOptional(env, name) === undefined ? undefined : readInteger(env, name, 0, 1, 525_600, problems);
}

// PGlite lives inside one process: several processes on one data folder would corrupt it.
function checkProcesses(config: Config, problems: string[]): void {
  if (config.gatewayProcesses > 1 && config.databaseUrl === undefined) {
    problems.push('GATEWAY_PROCESSES above 1 needs DATABASE_URL: the embedded database serves one process');
  }
}

function checkTls(config: Config, problems: string[]): void {
  if ((config.tlsCertFile === undefined) !== (config.tlsKeyFile === undefined)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  const tls = config.tlsCertFile !== undefined || config.trustProxyTls;
  if (config.system === 'live' && !tls) {
    problems.push('GATEWAY_SYSTEM=live needs TLS_CERT_FILE and TLS_KEY_FILE, or TRUST_PROXY_TLS=true behind a TLS proxy');
  }
  if (config.adminToken !== undefined && config.adminToken.length < 16) {
    problems.push('ADMIN_TOKEN must be at least 16 characters');
  }
}

// Proxy addresses mean something only when a proxy is trusted at all.
function checkProxies(env: Env, config: Config, problems: string[]): void {
  if (readOptional(env, 'TRUSTED_PROXIES') !== undefined && !config.trustProxyTls) {
    problems.push('TRUSTED_PROXIES needs TRUST_PROXY_TLS=true');
  }
}

function readAdminListener(env: Env, problems: string[]): Config['adminListener'] {
  const host = readOptional(env, 'ADMIN_HOST');
  if (readOptional(env, 'ADMIN_PORT') === undefined) {
    if (host !== undefined) problems.push('ADMIN_HOST needs ADMIN_PORT');
    return undefined;
  }
  return { host: host ?? '127.0.0.1', port: readInteger(env, 'ADMIN_PORT', 0, 0, 65535, problems) };
}

function checkAdminListener(config: Config, problems: string[]): void {
  const admin = config.adminListener;
  if (admin !== undefined && admin.port !== 0 && admin.port === config.port) problems.push('ADMIN_PORT must differ from PORT');
}

function readPublicUrl(env: Env, problems: string[]): string | undefined {
  const raw = readOptional(env, 'PUBLIC_URL');
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '') return raw.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  problems.push(`PUBLIC_URL=${JSON.stringify(raw)} must be an absolute http(s) URL without query or fragment`);
  return undefined;
}

export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const system = readEnum<GatewaySystem>(env, 'GATEWAY_SYSTEM', ['test', 'live'], 'test', problems);
  const config: Config = {
    host: readOptional(env, 'HOST') ?? '127.0.0.1',
    port: readInteger(env, 'PORT', 8080, 0, 65535, problems),
    databaseUrl: readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], problems),
    dataDir: readOptional(env, 'DATA_DIR') ?? './data',
    databasePoolSize: readInteger(env, 'DATABASE_POOL_SIZE', 10, 1, 1000, problems),
    databaseFailoverWaitMs: readInteger(env, 'DATABASE_FAILOVER_WAIT_MS', 15_000, 0, 120_000, problems),
    databasePoolMode: readPoolMode(env, problems),
    readReplica: collectReadReplicaSettings(env, readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], []), problems),
    gatewayProcesses: readInteger(env, 'GATEWAY_PROCESSES', 1, 1, 64, problems),
    system,
    tlsCertFile: readOptional(env, 'TLS_CERT_FILE'),
    tlsKeyFile: readOptional(env, 'TLS_KEY_FILE'),
    trustProxyTls: readBoolean(env, 'TRUST_PROXY_TLS', false, problems),
    trustedProxies: readTrustedProxies(env, problems),
    publicUrl: readPublicUrl(env, problems),
    adminToken: readOptional(env, 'ADMIN_TOKEN'),
    adminListener: readAdminListener(env, problems),
    throttleMaxRequests: readInteger(env, 'THROTTLE_MAX_REQUESTS', 1000, 1, 10_000_000, problems),
    throttleWindowMs: readInteger(env, 'THROTTLE_WINDOW_MS', 1000, 1, 86_400_000, problems),
    authFailuresMax: readInteger(env, 'AUTH_FAILURE_MAX_PER_WINDOW', 50, 1, 10_000_000, problems),
    authFailureWindowMs: readInteger(env, 'AUTH_FAILURE_WINDOW_MS', 60_000, 1, 86_400_000, problems),
    redisUrl: readUrl(env, 'REDIS_URL', ['redis:', 'rediss:'], problems),
    logLevel: readEnum<LogLevel>(env, 'LOG_LEVEL', LOG_LEVELS, 'info', problems),
    bodyLimitBytes: readInteger(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600, problems),
    reversalCutoffMinutes: readOptionalMinutes(env, 'REVERSAL_CUTOFF_MINUTES', problems),
    captureCutoffMinutes: readOptionalMinutes(env, 'CAPTURE_CUTOFF_MINUTES', problems),
    workers: collectWorkerSettings(env, problems, system),
    resolution: collectResolutionSettings(env, problems),
    schedules: collectScheduleSettings(env, problems),
    checkouts: collectCheckoutSettings(env, problems),
    httpTimeouts: collectHttpTimeouts(env, problems),
    acquirer: collectAcquirerSettings(env, problems),
    threeDsServer: collectThreeDsServerSettings(env, problems),
    threeDsChallengeTimeoutMs: readChallengeTimeoutMs(env, problems),
    threeDsMethodTimeoutMs: readThreeDsMethodTimeoutMs(env, problems),
    settlement: collectSettlementSettings(env, readOptional(env, 'DATA_DIR') ?? './data', problems),
    metrics: collectMetricsSettings(env, problems),
    requestLog: collectRequestLogSettings(env, problems),
    health: collectHealthSettings(env, problems),
    console: collectConsoleSettings(env, problems),
  };
  checkTls(config, problems);
  checkProxies(env, config, problems);
  checkAdminListener(config, problems);
  checkProcesses(config, problems);
  if (config.console.listener === 'admin' && config.adminListener === undefined) problems.push('CONSOLE_LISTENER=admin needs ADMIN_PORT');
  // A slow acquirer must end as a pending answer (200, 000.200.000), not as a 504 "uncertain".
  if (config.databaseFailoverWaitMs >= config.httpTimeouts.handlerTimeoutMs) problems.push('DATABASE_FAILOVER_WAIT_MS must be shorter than HANDLER_TIMEOUT_MS');
  if (config.resolution.connectorTimeoutMs >= config.httpTimeouts.handlerTimeoutMs) problems.push('CONNECTOR_TIMEOUT_MS must be shorter than HANDLER_TIMEOUT_MS');
  // The host's own timeout must come first, so an unanswered request is advised, not just abandoned.
  if (config.acquirer && config.acquirer.responseTimeoutMs >= config.resolution.connectorTimeoutMs) problems.push('ACQUIRER_HOST_TIMEOUT_MS must be shorter than CONNECTOR_TIMEOUT_MS');
  // A payment waits for the ARes, then for its connector: both must end before the handler's 504.
  if (config.threeDsServer && config.threeDsServer.timeoutMs + config.resolution.connectorTimeoutMs >= config.httpTimeouts.handlerTimeoutMs) problems.push('THREE_DS_SERVER_TIMEOUT_MS plus CONNECTOR_TIMEOUT_MS must be shorter than HANDLER_TIMEOUT_MS');
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
