import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCli, startGateway, type GatewayProcess } from '../support/gateway-process.js';
import { SAMPLE_CARD } from '../support/payments.js';

async function call(url: string, path: string, init: { method?: string; token?: string; form?: Record<string, string> } = {}) {
  const response = await fetch(new URL(path, url), {
    method: init.method ?? (init.form ? 'POST' : 'GET'),
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('a real gateway process on the embedded database', () => {
  let dataDir: string;
  let gateway: GatewayProcess;
  let env: Record<string, string>;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
    env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    gateway = await startGateway(env);
  });
  after(async () => {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints a demo merchant on first start whose token reaches the API', async () => {
    const entityId = /entityId:\s+([0-9a-f]{32})/.exec(gateway.output())?.[1];
    const token = /accessToken: (\S+)/.exec(gateway.output())?.[1];
    assert.ok(entityId && token, gateway.output());
    const payment = await call(gateway.url, '/v1/payments', { token, form: { entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD } });
    assert.equal(payment.status, 200, JSON.stringify(payment.body));
    assert.equal(payment.body.result.code, '000.100.110');
  });

  it('the command line works while the gateway holds the embedded database, and data survives a restart', async () => {
    const created = await runCli(['entity', 'create', '--name', 'Demo'], env);
    assert.equal(created.code, 0, created.stderr);
    const { entityId, accessToken } = JSON.parse(created.stdout) as { entityId: string; accessToken: string };
    assert.match(entityId, /^[0-9a-f]{32}$/);

    const missing = `/v1/payments/${'0'.repeat(32)}?entityId=${entityId}`;
    assert.equal((await call(gateway.url, missing)).status, 401);
    assert.equal((await call(gateway.url, missing, { token: 'not-a-real-token-at-all' })).status, 403);
    const found = await call(gateway.url, missing, { token: accessToken });
    assert.equal(found.status, 404);
    assert.equal(found.body.result.code, '700.400.580');
    const demoEntity = /entityId:\s+([0-9a-f]{32})/.exec(gateway.output())![1]!;
    const foreign = await call(gateway.url, `/v1/payments/${'0'.repeat(32)}?entityId=${demoEntity}`, { token: accessToken });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.result.code, '800.900.301');

    assert.equal(await gateway.stop(), 0);
    const listed = await runCli(['entity', 'list'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(listed.stdout.includes(entityId), 'the CLI opens the database itself when no gateway runs');

    gateway = await startGateway(env);
    assert.doesNotMatch(gateway.output(), /Demo merchant created/);
    assert.equal((await call(gateway.url, missing, { token: accessToken })).status, 404, 'the token survived the restart');
  });

  it('a second gateway on the same data folder refuses to start', async () => {
    await assert.rejects(startGateway(env, 30_000), /another gateway process is using/);
  });

  it('--help and bad commands answer without touching the database', async () => {
    const help = await runCli(['--help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /entity create --name/);
    const bad = await runCli(['entity', 'explode'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown command/);
  });
});

const url = process.env['TEST_DATABASE_URL'];
describe('the command line on PostgreSQL', { skip: url ? false : 'TEST_DATABASE_URL not set' }, () => {
  it('creates, lists and revokes directly in the database', async () => {
    const schema = `cli_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const databaseUrl = `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    try {
      const env = { DATABASE_URL: databaseUrl };
      const merchant = JSON.parse((await runCli(['entity', 'create', '--name', 'PG shop'], env)).stdout) as { entityId: string };
      const channel = await runCli(['entity', 'create', '--name', 'PG channel', '--merchant', merchant.entityId], env);
      assert.equal(JSON.parse(channel.stdout).kind, 'channel');
      const token = JSON.parse((await runCli(['token', 'create', '--entity', merchant.entityId], env)).stdout) as { tokenId: string };
      assert.equal((await runCli(['token', 'revoke', '--token-id', token.tokenId], env)).code, 0);
      const again = await runCli(['token', 'revoke', '--token-id', token.tokenId], env);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /200\.300\.406/);
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.entities`);
      assert.equal(rows[0].n, 2);
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  });
});
