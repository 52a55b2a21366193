import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MasterKeyRing, masterKeyFromHex, type Vault } from '../../src/domain/vault/index.js';
import { openVault } from '../../src/operations/registrations/open-vault.js';
import { rotateVaultKey, vaultStatus } from '../../src/operations/registrations/vault-maintenance.js';
import { randomIds } from '../../src/domain/ids.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { payWithRegistration, postRegistration, REGISTRATION_CARD, SEPA_ACCOUNT } from '../support/registrations.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const OLD = masterKeyFromHex('0f'.repeat(32));
const NEW = masterKeyFromHex('f0'.repeat(32));
const DAY_MS = 24 * 60 * 60 * 1000;

for (const database of testDatabases()) {
  describe(`master-key rotation on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    const vaultOf = (current: typeof OLD, accepted: (typeof OLD)[] = []): Vault => openVault({ storage: t.storage, clock: t.clock, ids: randomIds }, new MasterKeyRing(current, accepted));
    const useVault = (vault: Vault) => Object.assign(t.app.gateway.payments, { vault });
    before(async () => {
      const storage = await database.open();
      t = await startTestApp(storage, { env: { LOG_LEVEL: 'warn' } });
      useVault(vaultOf(OLD));
      merchant = await t.createMerchant();
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it('keeps every registration usable: re-wrapped under the new key, read with the new key alone', async () => {
      const ids: string[] = [];
      for (const fields of [REGISTRATION_CARD, SEPA_ACCOUNT, { paymentBrand: 'VISA', 'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'EXTERNAL' }]) {
        ids.push((await postRegistration(t, merchant, fields)).json().id);
        t.clock.advance(DAY_MS); // a data key per day: the rotation has several to re-wrap
      }
      ids.push((await cardPayment(t, merchant, 'DB', '5.00', { createRegistration: 'true' })).json().registrationId);
      assert.equal(ids.filter(Boolean).length, 4);

      // While the operator rolls the new key out, processes that know both keys keep serving.
      useVault(vaultOf(NEW, [OLD]));
      const report = await rotateVaultKey(t.storage, vaultOf(NEW, [OLD]));
      assert.equal(report.rewrapped, 5, 'four daily data keys and the look-up key');
      assert.equal(report.after.dataKeys.every((row) => row.masterKeyId === NEW.id && row.current), true);

      useVault(vaultOf(NEW));
      for (const id of ids) {
        const paid = await payWithRegistration(t, merchant, id);
        assert.match(paid.json().result.code, SUCCESS_PATTERN, paid.body);
      }
      const created = await postRegistration(t, merchant);
      assert.match((await payWithRegistration(t, merchant, created.json().id)).json().result.code, SUCCESS_PATTERN);
      assert.deepEqual((await rotateVaultKey(t.storage, vaultOf(NEW))).rewrapped, 0, 'a second run has nothing to do');
    });

    it('the old key alone reads nothing any more', async () => {
      const status = await vaultStatus(t.storage, vaultOf(OLD));
      assert.equal(status.dataKeys.some((row) => row.masterKeyId === OLD.id), false);
      useVault(vaultOf(OLD));
      const id = (await t.storage.query<{ id: string }>(`SELECT id FROM registrations WHERE status = 'active' LIMIT 1`)).rows[0]!.id;
      const refused = await payWithRegistration(t, merchant, id);
      assert.equal(refused.statusCode, 500, 'an unknown master key is a configuration fault, never a wrong charge');
      useVault(vaultOf(NEW));
    });
  });
}
