import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { adminApiCaller } from '../../src/cli/admin-api-call.js';
import { startGateway, type GatewayProcess } from '../support/gateway-process.js';
import { SAMPLE_CARD } from '../support/payments.js';

/**
 * Two gateway processes on one PostgreSQL: velocity is counted across both (the attempts are
 * rows, not process memory), and a rule set changed through one process is applied by the other
 * within its cache time (5 s).
 */
const url = process.env['TEST_DATABASE_URL'];

describe('risk checks across two gateway processes', { skip: url ? false : 'TEST_DATABASE_URL not set: two processes need PostgreSQL' }, () => {
  const schema = `risk_${randomBytes(6).toString('hex')}`;
  const adminToken = randomBytes(24).toString('hex');
  const admin = new pg.Client({ connectionString: url });
  let a: GatewayProcess;
  let b: GatewayProcess;
  let merchant = { entityId: '', accessToken: '' };

  before(async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const databaseUrl = `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    a = await startGateway({ DATABASE_URL: databaseUrl, ADMIN_TOKEN: adminToken });
    b = await startGateway({ DATABASE_URL: databaseUrl, ADMIN_TOKEN: adminToken });
    merchant = {
      entityId: /entityId:\s+([0-9a-f]{32})/.exec(a.output())![1]!,
      accessToken: /accessToken:\s+(\S+)/.exec(a.output())![1]!,
    };
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  const pay = async (gateway: GatewayProcess, extra: Record<string, string> = {}) => {
    const response = await fetch(`${gateway.url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ entityId: merchant.entityId, paymentType: 'DB', amount: '10.00', currency: 'EUR', ...SAMPLE_CARD, 'card.number': '5454545454545454', paymentBrand: 'MASTER', ...extra }),
    });
    return ((await response.json()) as { result: { code: string } }).result.code;
  };
  const setRules = (gateway: GatewayProcess, rules: unknown) =>
    adminApiCaller(gateway.url, adminToken)('PUT', `/admin/entities/${merchant.entityId}/risk/rules`, { rules: JSON.stringify(rules), by: 'e2e' });

  it('counts a card\'s attempts made through both processes, and applies a change within seconds', async () => {
    await setRules(a, { velocity: [{ key: 'card', measure: 'attempts', windowMinutes: 60, max: 3, action: 'reject' }] });
    assert.match(await pay(a), /^000\.100\.110$/);
    assert.match(await pay(b), /^000\.100\.110$/);
    assert.match(await pay(a), /^000\.100\.110$/);
    // The fourth attempt, whichever process takes it, is over the limit of three.
    assert.equal(await pay(b), '800.120.101');
    assert.equal(await pay(a), '800.120.101');
    // Raised through A: B, which cached the old rule set, follows within its cache time.
    await setRules(a, { velocity: [{ key: 'card', measure: 'attempts', windowMinutes: 60, max: 1000, action: 'reject' }] });
    const started = Date.now();
    let code = await pay(b);
    while (code !== '000.100.110' && Date.now() - started < 8_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      code = await pay(b);
    }
    assert.equal(code, '000.100.110');
    assert.ok(Date.now() - started <= 6_500, `B applied the change after ${Date.now() - started} ms`);
  });
});
