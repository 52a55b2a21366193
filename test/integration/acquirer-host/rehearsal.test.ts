import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Iso8583Connector } from '../../../src/connectors/iso8583/connector.js';
import { ACQUIRER_HOST_CONNECTOR_ID } from '../../../src/connectors/default-connectors.js';
import { startAcquirerHost, type AcquirerHost } from '../../../emulators/acquirer-host/server.js';
import { testDatabases } from '../../support/databases.js';
import { SAMPLE_CARD, type Merchant } from '../../support/payments.js';
import { bearer, form, FORM_HEADERS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../support/test-app.js';
import { selfSignedLocalhost } from './tls-fixture.js';

const https = { 'x-forwarded-proto': 'https' };

const tlsCertificate = selfSignedLocalhost();

for (const database of testDatabases()) {
  describe(`the live rehearsal on ${database.name}: the live system routed to the emulator over TLS`, { skip: tlsCertificate ? false : 'no openssl to make a certificate' }, () => {
    let dir: string;
    let host: AcquirerHost;
    let t: TestApp;
    let merchant: Merchant;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'rehearsal-'));
      host = await startAcquirerHost({ tls: tlsCertificate!, settlementDir: dir });
      writeFileSync(join(dir, 'ca.pem'), tlsCertificate!.cert);
      t = await startTestApp(await database.open(), {
        env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true', LOG_LEVEL: 'warn', ACQUIRER_HOST_URL: `tls://localhost:${host.port}`, ACQUIRER_HOST_CA_FILE: join(dir, 'ca.pem'), ACQUIRER_HOST_SETTLEMENT: join(dir, 'settlement-{date}.txt') },
      });
      merchant = await t.createMerchant('Rehearsal shop');
      const route = await t.app.inject({
        method: 'POST',
        url: '/admin/routes',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...https, ...FORM_HEADERS },
        payload: form({ connector: ACQUIRER_HOST_CONNECTOR_ID, entity: merchant.entityId, 'credentials[terminalId]': 'TERM0001', 'credentials[merchantId]': 'REHEARSAL000001' }),
      });
      assert.equal(route.statusCode, 201, route.body);
    });
    after(async () => {
      (t.app.gateway.payments.connectors.registry.connectorById(ACQUIRER_HOST_CONNECTOR_ID) as Iso8583Connector).close();
      await t.close();
      await t.storage.close();
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('pays live with 000.000.000, and the day\'s settlement file comes back through the connector', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/payments', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS, ...https }, payload: form({ entityId: merchant.entityId, amount: '25.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD }) });
      const paid = response.json() as Record<string, any>;
      assert.equal(paid.result.code, '000.000.000', response.body);
      assert.equal(host.ledger.charged(paid.id), true);
      const date = new Date().toISOString().slice(0, 10);
      await host.writeSettlementFile(date);
      const connector = t.app.gateway.payments.connectors.registry.connectorById(ACQUIRER_HOST_CONNECTOR_ID)!;
      const records = [];
      for await (const record of connector.settlement!({ date })) records.push(record);
      const mine = records.find((r) => r.connectorReferences['ConnectorTxID1'] === paid.resultDetails.ConnectorTxID1);
      assert.equal(mine?.amountMinor, 2500n);
      assert.equal(mine?.type, 'SETTLED');
    });
  });
}
