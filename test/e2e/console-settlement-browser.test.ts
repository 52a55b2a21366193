/**
 * The console's settlement pages in Chromium (issue 32), at desktop width and at 375 px: the
 * batches, a batch with its records and the chargebacks pass axe-core (no serious or critical
 * violation), nothing is wider than the screen, a matched record leads to its payment, and the
 * screenshots in docs/images/console/settlement-*.png are taken here. The file delivery page: a
 * merchant's administrator adds SFTP keys, sees them by fingerprint, removes one and sets a push
 * target, by keyboard-reachable forms.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { SettlementRecord } from '../../src/connectors/connector.js';
import { randomIds } from '../../src/domain/ids.js';
import { ingestSettlement } from '../../src/operations/settlement/ingest-settlement.js';
import { testDatabases } from '../support/databases.js';
import { signInAs } from '../support/console.js';
import { cardPayment } from '../support/payments.js';
import { fixedSource } from '../support/settlement.js';
import { merchantKeyPair } from '../support/sftp-client.js';
import { sshKeySummary } from '../../src/domain/settlement/ssh-key-fingerprint.js';
import { json, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { DESKTOP, PHONE, expectAccessibleAndFits, saveConsoleScreenshot, signedInPage } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';


function recordOf(recordId: string, type: SettlementRecord['type'], day: string, reference: string, amountMinor: bigint, extra: Partial<SettlementRecord> = {}): SettlementRecord {
  return {
    recordId, type, status: 'SUCCESS', settlementDate: day, transactionDate: new Date(`${day}T09:30:00Z`),
    clearingInstitute: 'Simulator Acquiring Bank', batchId: `SIM-${day}-EUR`, paymentType: 'DB', amountMinor, currency: 'EUR',
    settlementAmountMinor: amountMinor, settlementCurrency: 'EUR', fxRate: '1', feeMinor: 25n, feeCurrency: 'EUR',
    connectorReferences: { ConnectorTxID1: reference },
    ...(type === 'SETTLED' ? {} : { resultCode: '000.100.222', reasonCode: '4837' }),
    ...extra,
  };
}

const [pglite] = testDatabases();

describe('the settlement pages in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let base: string;
  let merchantId: string;
  const payments: string[] = [];
  withAppAndMerchant(() => pglite!.open(), { env: { LOG_LEVEL: 'warn' } }, (app, merchant) => {
    t = app;
    merchantId = merchant.entityId;
  });

  before(async () => {
    const shop = await t.createMerchant('Bakery Berlin');
    merchantId = shop.entityId;
    const refs: { id: string; connectorId: string; reference: string }[] = [];
    for (const amount of ['19.90', '4.50', '120.00', '30.66', '12.00']) {
      const id = json(await cardPayment(t, shop, 'DB', amount, { testMode: 'EXTERNAL' }))['id'] as string;
      const { rows } = await t.storage.query<{ connector_id: string; reference: string }>(`SELECT connector_id, connector_references ->> 'ConnectorTxID1' AS reference FROM transactions WHERE id = $1`, [id]);
      refs.push({ id, connectorId: rows[0]!.connector_id, reference: rows[0]!.reference });
      payments.push(id);
    }
    const [a, b, c, d, e] = refs as [typeof refs[0], typeof refs[0], typeof refs[0], typeof refs[0], typeof refs[0]];
    const deps = { storage: t.storage, clock: t.clock, ids: randomIds };
    await ingestSettlement(deps, [fixedSource(a.connectorId, [
      recordOf('S-1001', 'SETTLED', '2026-11-20', a.reference, 1990n), recordOf('S-1002', 'SETTLED', '2026-11-20', b.reference, 450n),
      recordOf('S-1003', 'SETTLED', '2026-11-20', c.reference, 12000n), recordOf('S-1004', 'SETTLED', '2026-11-20', d.reference, 3066n),
      recordOf('S-1005', 'SETTLED', '2026-11-20', e.reference, 1200n), recordOf('S-1006', 'SETTLED', '2026-11-20', 'UNKNOWN-7731', 999n, { merchantEntityId: shop.entityId }),
    ])], '2026-11-20');
    await ingestSettlement(deps, [fixedSource(a.connectorId, [recordOf('CB-2001', 'CHARGEBACK', '2026-11-21', d.reference, 3066n, { feeMinor: 1500n })])], '2026-11-21');
    await ingestSettlement(deps, [fixedSource(a.connectorId, [recordOf('CR-3001', 'CHARGEBACK_REVERSAL', '2026-11-22', d.reference, 3066n, { feeMinor: 0n })])], '2026-11-22');
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`settlement at ${viewport.label} width: the batches, a batch and the chargebacks pass axe; a record leads to its payment`, async () => {
      const page = await signedInPage(browser(), base, await signInAs(t, { role: 'finance', merchantId }), viewport);
      try {
        await page.goto(`${base}/console`);
        await page.getByRole('link', { name: 'Settlement', exact: true }).click();
        assert.equal(await page.locator('table tbody tr').count(), 3, 'three days, one batch each');
        await expectAccessibleAndFits(page, 'the batches');
        await saveConsoleScreenshot(page, 'settlement-batches', viewport, { fullPage: true });
        await page.getByRole('link', { name: 'SIM-2026-11-20-EUR' }).click();
        assert.equal(await page.locator('table tbody tr').count(), 6);
        assert.ok(await page.getByText('not matched').isVisible(), 'the record nobody knows');
        const download = page.getByRole('link', { name: 'Download the reconciliation file of 2026-11-20 (CSV)' });
        assert.equal(await download.getAttribute('href'), `/console/settlement/files/${merchantId}/reconciliation-2026-11-20.csv`);
        await expectAccessibleAndFits(page, 'a batch');
        await saveConsoleScreenshot(page, 'settlement-batch', viewport, { fullPage: true });
        await page.getByRole('link', { name: payments[0]! }).click();
        assert.ok(page.url().endsWith(`/console/payments/${payments[0]}`), 'the record leads to its payment');
        await page.goto(`${base}/console/settlement`);
        await page.getByRole('link', { name: 'Chargebacks' }).click();
        assert.equal(await page.locator('table tbody tr').count(), 2, 'the chargeback and its reversal');
        await expectAccessibleAndFits(page, 'the chargebacks');
        await saveConsoleScreenshot(page, 'settlement-chargebacks', viewport, { fullPage: true });
        await page.getByLabel('From').fill('2026-11-31');
        await page.getByRole('button', { name: 'Show' }).click();
        assert.ok(await page.getByText('must be a day, yyyy-MM-dd').isVisible());
        await expectAccessibleAndFits(page, 'a refused filter');
      } finally {
        await page.context().close();
      }
    });

    it(`file delivery at ${viewport.label} width: add two keys, see them listed, remove one, set a push target; axe clean`, async () => {
      const page = await signedInPage(browser(), base, await signInAs(t, { role: 'merchant-admin', merchantId }), viewport);
      try {
        await page.goto(`${base}/console/settlement`);
        await page.getByRole('link', { name: 'File delivery' }).click();
        assert.ok(page.url().endsWith('/console/settlement/delivery'));
        const rowsBefore = await page.locator('table tbody tr').count();
        const kept = merchantKeyPair();
        const removed = merchantKeyPair();
        for (const key of [kept, removed]) {
          await page.getByLabel('OpenSSH public key').fill(`${key.publicKey.trim().split(' ').slice(0, 2).join(' ')} finance@bakery.example`);
          await page.getByRole('button', { name: 'Add the key' }).click();
          await page.getByText('The key was added').waitFor();
        }
        assert.equal(await page.locator('table tbody tr').count(), rowsBefore + 2);
        for (const key of [kept, removed]) assert.ok(await page.getByText(sshKeySummary(key.publicKey)!.fingerprint).isVisible(), 'listed by its fingerprint');
        await page.getByRole('button', { name: `Remove the ssh-ed25519 key ${sshKeySummary(removed.publicKey)!.fingerprint}` }).click();
        await page.getByText('The key was removed').waitFor();
        assert.equal(await page.getByText(sshKeySummary(removed.publicKey)!.fingerprint).count(), 0, 'the removed key is gone');
        await page.getByLabel('OpenSSH public key').fill(removed.privateKey);
        await page.getByRole('button', { name: 'Add the key' }).click();
        await page.getByText('must be one OpenSSH public key').waitFor();
        assert.equal(await page.getByLabel('OpenSSH public key').inputValue(), '', 'and never put back into the form');
        await expectAccessibleAndFits(page, 'a refused key');
        await page.getByLabel('Server URL').fill('sftp://bakery@files.bakery.example/reconciliation');
        await page.getByLabel('Password').fill('push-password-1');
        await page.getByRole('button', { name: /^(Set|Replace)$/ }).click();
        await page.getByText('The push target was set').waitFor();
        await page.getByText('sftp://bakery@files.bakery.example:22/reconciliation').waitFor();
        assert.equal(await page.getByLabel('Password').inputValue(), '', 'the password is never shown again');
        await expectAccessibleAndFits(page, 'file delivery');
        await saveConsoleScreenshot(page, 'settlement-delivery', viewport, { fullPage: true });
      } finally {
        await page.context().close();
      }
    });
  }
});
