import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startGateway, type GatewayProcess } from '../support/gateway-process.js';

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
