import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCli, startGateway, type GatewayProcess } from '../support/gateway-process.js';

const CARD = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' };

async function post(gateway: GatewayProcess, path: string, accessToken: string, fields: Record<string, string>): Promise<Record<string, any>> {
  const response = await fetch(new URL(path, gateway.url), { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  return (await response.json()) as Record<string, any>;
}

describe('the built gateway on the test system without ACQUIRER_HOST_URL', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let gateway: GatewayProcess | undefined;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gateway-embedded-acquirer-'));
    env = { DATA_DIR: dataDir, DATABASE_URL: '', ACQUIRER_HOST_URL: '' };
    gateway = await startGateway(env);
  });
  after(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers testMode=EXTERNAL from the emulator it runs (bundled into dist/), and stops cleanly', async () => {
    const created = await runCli(['entity', 'create', '--name', 'Shop'], env);
    assert.equal(created.code, 0, created.stderr);
    const { entityId, accessToken } = JSON.parse(created.stdout) as { entityId: string; accessToken: string };
    const body = new URLSearchParams({ entityId, amount: '12.00', currency: 'EUR', paymentType: 'DB', testMode: 'EXTERNAL', paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' });
    const response = await fetch(new URL('/v1/payments', gateway!.url), { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body });
    const paid = (await response.json()) as Record<string, any>;
    assert.equal(paid.result.code, '000.100.112', JSON.stringify(paid));
    assert.equal(paid.resultDetails.clearingInstituteName, 'Acquirer Host Emulator');
    assert.equal(await gateway!.stop(), 0, gateway!.output());
  });
});

const url = process.env['TEST_DATABASE_URL'];

describe('GATEWAY_PROCESSES=2 without ACQUIRER_HOST_URL: the primary runs the one emulator both processes reach', { skip: url ? false : 'TEST_DATABASE_URL not set: GATEWAY_PROCESSES needs PostgreSQL' }, () => {
  const schema = `embedded_acquirer_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  let gateway: GatewayProcess | undefined;
  let merchant: { entityId: string; accessToken: string };
  before(async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const databaseUrl = `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    gateway = await startGateway({ DATABASE_URL: databaseUrl, GATEWAY_PROCESSES: '2', ACQUIRER_HOST_URL: '' });
    const output = gateway.output();
    merchant = { entityId: /entityId:\s+(\w+)/.exec(output)![1]!, accessToken: /accessToken:\s+(\S+)/.exec(output)![1]! };
  });
  after(async () => {
    await gateway?.stop();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('a payment and its refunds, spread over both processes, all reach one ledger', async () => {
    const paid = await post(gateway!, '/v1/payments', merchant.accessToken, { entityId: merchant.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', testMode: 'EXTERNAL', ...CARD });
    assert.equal(paid.result.code, '000.100.112', JSON.stringify(paid));
    assert.equal(paid.resultDetails.clearingInstituteName, 'Acquirer Host Emulator');
    // node:cluster hands connections round robin: six refunds reach both processes.
    for (let i = 0; i < 6; i++) {
      const refund = await post(gateway!, `/v1/payments/${paid.id}`, merchant.accessToken, { entityId: merchant.entityId, amount: '1.00', currency: 'EUR', paymentType: 'RF' });
      assert.equal(refund.result.code, '000.100.112', `refund ${i}: ${JSON.stringify(refund)}`);
    }
  });
});
