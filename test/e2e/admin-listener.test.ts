import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startGateway, type GatewayProcess } from '../support/gateway-process.js';

async function get(url: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(path, url), { headers });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A gateway on the embedded database with its own folder, stopped and removed after the suite. */
function gatewayIn(env: () => Record<string, string>) {
  const state = { dataDir: '', gateway: undefined as GatewayProcess | undefined, env: {} as Record<string, string> };
  before(async () => {
    state.dataDir = mkdtempSync(join(tmpdir(), 'gateway-admin-'));
    state.env = { DATA_DIR: state.dataDir, DATABASE_URL: '', ADMIN_PORT: '0', ...env() };
    state.gateway = await startGateway(state.env);
  });
  after(async () => {
    await state.gateway?.stop();
    rmSync(state.dataDir, { recursive: true, force: true });
  });
  return state;
}

describe('a real gateway with ADMIN_PORT=0: /admin on a listener of its own', () => {
  const s = gatewayIn(() => ({}));

  it('listens on a second port, recorded for the command line', () => {
    const { gateway, dataDir } = s;
    assert.ok(gateway!.adminUrl, gateway!.output());
    assert.notEqual(new URL(gateway!.adminUrl).port, new URL(gateway!.url).port);
    assert.notEqual(new URL(gateway!.adminUrl).port, '0');
    const record = JSON.parse(readFileSync(join(dataDir, 'gateway.json'), 'utf8')) as { url: string; adminUrl: string };
    assert.equal(record.adminUrl, gateway!.adminUrl);
  });

  it('/admin is absent on the public port and present on the admin port', async () => {
    const token = { authorization: `Bearer ${readFileSync(join(s.dataDir, 'admin-token'), 'utf8').trim()}` };
    const onPublic = await get(s.gateway!.url, '/admin/entities', token);
    assert.equal(onPublic.status, 404);
    assert.equal(onPublic.body.result.code, '200.300.404');
    assert.equal((await get(s.gateway!.adminUrl!, '/admin/entities', token)).status, 200);
    assert.equal((await get(s.gateway!.adminUrl!, '/v1/resultcodes')).status, 404, 'the admin port serves only /admin');
  });

  it('the command line goes through the admin port, and its token works on the public one', async () => {
    const created = await runCli(['entity', 'create', '--name', 'Shop'], s.env);
    assert.equal(created.code, 0, created.stderr);
    const { entityId, accessToken } = JSON.parse(created.stdout) as { entityId: string; accessToken: string };
    const found = await get(s.gateway!.url, `/v1/payments/${'0'.repeat(32)}?entityId=${entityId}`, { authorization: `Bearer ${accessToken}` });
    assert.equal(found.status, 404);
    assert.equal(found.body.result.code, '700.400.580');
    const hooks = await runCli(['webhook', 'list'], s.env);
    assert.equal(hooks.code, 0, hooks.stderr);
  });
});

describe('a real live-system gateway behind a TLS proxy (TRUST_PROXY_TLS, TRUSTED_PROXIES) with an admin port', () => {
  // The proxy's address is one this test never connects from: every request here is a stranger's.
  const s = gatewayIn(() => ({
    GATEWAY_SYSTEM: 'live',
    TRUST_PROXY_TLS: 'true',
    TRUSTED_PROXIES: '192.0.2.1',
    VAULT_MASTER_KEY: randomBytes(32).toString('hex'),
  }));

  it('a client that is not the proxy cannot claim HTTPS with X-Forwarded-Proto', async () => {
    const spoofed = await get(s.gateway!.url, '/v1/resultcodes', { 'x-forwarded-proto': 'https' });
    assert.equal(spoofed.status, 403);
    assert.equal(spoofed.body.result.code, '800.900.302');
  });

  it('the command line still manages it, through the loopback admin listener', async () => {
    const created = await runCli(['entity', 'create', '--name', 'Live shop'], s.env);
    assert.equal(created.code, 0, created.stderr);
    assert.match((JSON.parse(created.stdout) as { entityId: string }).entityId, /^[0-9a-f]{32}$/);
    const listed = await runCli(['entity', 'list'], s.env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /Live shop/);
  });
});
