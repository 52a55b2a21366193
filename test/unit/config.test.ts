import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';

describe('loadConfig', () => {
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({});
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8080);
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, './data');
    assert.equal(config.system, 'test');
    assert.ok(Object.isFrozen(config));
  });

  const accepted: [Record<string, string>, string, unknown][] = [
    [{ PORT: '9000' }, 'port', 9000],
    [{ DATABASE_URL: 'postgres://u@h/db' }, 'databaseUrl', 'postgres://u@h/db'],
    [{ DATABASE_URL: 'postgresql://u@h/db' }, 'databaseUrl', 'postgresql://u@h/db'],
    [{ GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true' }, 'system', 'live'],
    [{ GATEWAY_SYSTEM: 'live', TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem' }, 'tlsCertFile', 'c.pem'],
    [{ THROTTLE_MAX_REQUESTS: '5', THROTTLE_WINDOW_MS: '200' }, 'throttleWindowMs', 200],
    [{ REDIS_URL: 'redis://127.0.0.1:6379' }, 'redisUrl', 'redis://127.0.0.1:6379'],
    [{ LOG_LEVEL: 'silent' }, 'logLevel', 'silent'],
    [{ PORT: '' }, 'port', 8080],
    [{}, 'gatewayProcesses', 1],
    [{ GATEWAY_PROCESSES: '4', DATABASE_URL: 'postgres://u@h/db' }, 'gatewayProcesses', 4],
    [{}, 'adminListener', undefined],
    [{}, 'authFailuresMax', 50],
    [{ AUTH_FAILURE_MAX_PER_WINDOW: '7', AUTH_FAILURE_WINDOW_MS: '5000' }, 'authFailureWindowMs', 5000],
  ];
  for (const [env, key, expected] of accepted) {
    it(`accepts ${JSON.stringify(env)}`, () => {
      assert.equal(loadConfig(env)[key as keyof ReturnType<typeof loadConfig>], expected);
    });
  }

  const rejected: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ GATEWAY_SYSTEM: 'prod' }, /GATEWAY_SYSTEM/],
    [{ GATEWAY_SYSTEM: 'live' }, /TLS/],
    [{ TLS_CERT_FILE: 'c.pem' }, /together/],
    [{ TRUST_PROXY_TLS: 'yes' }, /TRUST_PROXY_TLS/],
    [{ THROTTLE_MAX_REQUESTS: '0' }, /THROTTLE_MAX_REQUESTS/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ ADMIN_TOKEN: 'short' }, /ADMIN_TOKEN/],
    [{ GATEWAY_PROCESSES: '2' }, /GATEWAY_PROCESSES above 1 needs DATABASE_URL/],
    [{ GATEWAY_PROCESSES: '0', DATABASE_URL: 'postgres://u@h/db' }, /GATEWAY_PROCESSES/],
    [{ GATEWAY_PROCESSES: '65', DATABASE_URL: 'postgres://u@h/db' }, /GATEWAY_PROCESSES/],
    [{ TRUSTED_PROXIES: '10.0.0.1' }, /TRUSTED_PROXIES needs TRUST_PROXY_TLS=true/],
    [{ TRUST_PROXY_TLS: 'true', TRUSTED_PROXIES: '10.0.0.0/33' }, /TRUSTED_PROXIES .*not 10\.0\.0\.0\/33/],
    [{ TRUST_PROXY_TLS: 'true', TRUSTED_PROXIES: 'proxy.internal' }, /TRUSTED_PROXIES/],
    [{ TRUST_PROXY_TLS: 'true', TRUSTED_PROXIES: ' , ' }, /TRUSTED_PROXIES/],
    [{ ADMIN_HOST: '127.0.0.1' }, /ADMIN_HOST needs ADMIN_PORT/],
    [{ ADMIN_PORT: '8080' }, /ADMIN_PORT must differ from PORT/],
    [{ ADMIN_PORT: 'admin' }, /ADMIN_PORT/],
    [{ AUTH_FAILURE_MAX_PER_WINDOW: '0' }, /AUTH_FAILURE_MAX_PER_WINDOW/],
    [{ AUTH_FAILURE_WINDOW_MS: '-1' }, /AUTH_FAILURE_WINDOW_MS/],
  ];
  for (const [env, message] of rejected) {
    it(`rejects ${JSON.stringify(env)}`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
    });
  }

  it('trusts loopback proxies by default and takes the TRUSTED_PROXIES list as given', () => {
    assert.deepEqual(loadConfig({ TRUST_PROXY_TLS: 'true' }).trustedProxies, ['127.0.0.0/8', '::1']);
    assert.deepEqual(loadConfig({ TRUST_PROXY_TLS: 'true', TRUSTED_PROXIES: '10.0.0.0/8, 2001:db8::1' }).trustedProxies, ['10.0.0.0/8', '2001:db8::1']);
  });

  it('puts the admin listener on loopback unless ADMIN_HOST says otherwise', () => {
    assert.deepEqual(loadConfig({ ADMIN_PORT: '0' }).adminListener, { host: '127.0.0.1', port: 0 });
    assert.deepEqual(loadConfig({ ADMIN_PORT: '9090', ADMIN_HOST: '10.0.0.5' }).adminListener, { host: '10.0.0.5', port: 9090 });
  });

  it('names every bad variable at once', () => {
    assert.throws(
      () => loadConfig({ PORT: 'x', LOG_LEVEL: 'y', GATEWAY_SYSTEM: 'z' }),
      (error: unknown) => error instanceof ConfigError && error.problems.length === 3,
    );
  });
});

describe('README configuration table', () => {
  it('documents every variable loadConfig reads', async () => {
    const { readFileSync } = await import('node:fs');
    const { CONFIG_VARIABLES } = await import('../../src/config/load-config.js');
    const { VAULT_CONFIG_VARIABLES } = await import('../../src/config/vault-config.js');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const [name] of [...CONFIG_VARIABLES, ...VAULT_CONFIG_VARIABLES]) assert.ok(readme.includes(`| \`${name}\` |`), `${name} is in the README table`);
  });
});

describe('pending resolution settings', () => {
  it('defaults: 30 s for the connector, checks after 5 minutes and then less often, a week\'s horizon', () => {
    const { resolution } = loadConfig({});
    assert.deepEqual(resolution, { connectorTimeoutMs: 30_000, checkDelaysMinutes: [5, 15, 60, 240, 720, 1440], horizonHours: 168, sweepIntervalMs: 60_000, idempotencyLeaseMs: 30_000, redirectExpiryMs: 1_800_000, redirectSweepIntervalMs: 15_000 });
  });

  const refused: ReadonlyArray<readonly [Record<string, string>, RegExp]> = [
    [{ PENDING_CHECK_DELAYS_MINUTES: '5,x' }, /PENDING_CHECK_DELAYS_MINUTES/],
    [{ PENDING_CHECK_DELAYS_MINUTES: '0' }, /PENDING_CHECK_DELAYS_MINUTES/],
    [{ PENDING_CHECK_DELAYS_MINUTES: '1', CONNECTOR_TIMEOUT_MS: '60000' }, /longer than CONNECTOR_TIMEOUT_MS/],
    [{ PENDING_HORIZON_HOURS: '0' }, /PENDING_HORIZON_HOURS/],
    [{ IDEMPOTENCY_LEASE_MS: '10' }, /IDEMPOTENCY_LEASE_MS/],
    [{ CONNECTOR_TIMEOUT_MS: '60000', HANDLER_TIMEOUT_MS: '60000' }, /CONNECTOR_TIMEOUT_MS must be shorter than HANDLER_TIMEOUT_MS/],
    [{ DATABASE_FAILOVER_WAIT_MS: '60000', HANDLER_TIMEOUT_MS: '60000' }, /DATABASE_FAILOVER_WAIT_MS must be shorter than HANDLER_TIMEOUT_MS/],
    [{ DATABASE_FAILOVER_WAIT_MS: '-1' }, /DATABASE_FAILOVER_WAIT_MS/],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)}`, () => assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message)));
  }
});

describe('the wait for a database leader', () => {
  it('waits 15 s by default; 0 turns the wait off', () => {
    assert.equal(loadConfig({}).databaseFailoverWaitMs, 15_000);
    assert.equal(loadConfig({ DATABASE_FAILOVER_WAIT_MS: '0' }).databaseFailoverWaitMs, 0);
  });
});

describe('redirect settings and PUBLIC_URL', () => {
  it('reads REDIRECT_EXPIRY_MINUTES in minutes (decimals for tests) and PUBLIC_URL without a trailing slash', () => {
    const config = loadConfig({ REDIRECT_EXPIRY_MINUTES: '0.05', REDIRECT_SWEEP_INTERVAL_MS: '200', PUBLIC_URL: 'https://pay.example.com/' });
    assert.equal(config.resolution.redirectExpiryMs, 3_000);
    assert.equal(config.resolution.redirectSweepIntervalMs, 200);
    assert.equal(config.publicUrl, 'https://pay.example.com');
    assert.equal(loadConfig({}).publicUrl, undefined);
  });
  const refused: [Record<string, string>, RegExp][] = [
    [{ REDIRECT_EXPIRY_MINUTES: '0' }, /REDIRECT_EXPIRY_MINUTES/],
    [{ REDIRECT_EXPIRY_MINUTES: 'soon' }, /REDIRECT_EXPIRY_MINUTES/],
    [{ REDIRECT_EXPIRY_MINUTES: '20000' }, /REDIRECT_EXPIRY_MINUTES/],
    [{ PUBLIC_URL: 'pay.example.com' }, /PUBLIC_URL/],
    [{ PUBLIC_URL: 'ftp://pay.example.com' }, /PUBLIC_URL/],
    [{ PUBLIC_URL: 'https://pay.example.com/?x=1' }, /PUBLIC_URL/],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)}`, () => assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message)));
  }
});

describe('SFTP settings', () => {
  it('serves SFTP in the gateway with the default limits unless told otherwise', async () => {
    const { DEFAULT_SFTP_LIMITS } = await import('../../src/sftp/sftp-limits.js');
    assert.equal(loadConfig({}).settlement.sftp, undefined, 'no SFTP_PORT, no server');
    const sftp = loadConfig({ SFTP_PORT: '2222' }).settlement.sftp!;
    assert.equal(sftp.inGateway, true);
    assert.deepEqual(sftp.limits, DEFAULT_SFTP_LIMITS);
  });

  it('reads SFTP_IN_GATEWAY and every limit, and names each bad one', () => {
    const sftp = loadConfig({
      SFTP_PORT: '0', SFTP_IN_GATEWAY: 'false', SFTP_MAX_SESSIONS: '8', SFTP_MAX_SESSIONS_PER_MERCHANT: '2', SFTP_MAX_PENDING_AUTH: '3',
      SFTP_MAX_HANDLES_PER_SESSION: '5', SFTP_MAX_OPEN_FILES: '40', SFTP_AUTH_TIMEOUT_MS: '5000', SFTP_IDLE_TIMEOUT_MS: '60000',
    }).settlement.sftp!;
    assert.equal(sftp.inGateway, false);
    assert.deepEqual({ ...sftp.limits }, { maxSessions: 8, maxSessionsPerMerchant: 2, maxPendingAuth: 3, maxHandlesPerSession: 5, maxOpenFiles: 40, authTimeoutMs: 5000, idleTimeoutMs: 60000 });
    assert.throws(
      () => loadConfig({ SFTP_PORT: '0', SFTP_IN_GATEWAY: 'no', SFTP_MAX_HANDLES_PER_SESSION: '0', SFTP_IDLE_TIMEOUT_MS: 'soon' }),
      (error: unknown) => error instanceof ConfigError && error.problems.length === 3,
    );
  });
});
