import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { cardPayment, referencePayment, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';

const MINUTE_MS = 60_000;

for (const database of testDatabases()) {
  describe(`operator cut-offs on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn', REVERSAL_CUTOFF_MINUTES: '10', CAPTURE_CUTOFF_MINUTES: '30' } }, (app, created) => {
      t = app;
      merchant = created;
    });
    const codeOf = (r: { json(): any }) => r.json().result.code as string;

    it('REVERSAL_CUTOFF_MINUTES: a reversal within the window passes, after it 700.300.700', async () => {
      const early = (await cardPayment(t, merchant, 'DB', '10.00')).json().id;
      const late = (await cardPayment(t, merchant, 'DB', '10.00')).json().id;
      t.clock.advance(9 * MINUTE_MS);
      assert.match(codeOf(await referencePayment(t, merchant, early, 'RV')), SUCCESS_PATTERN);
      t.clock.advance(2 * MINUTE_MS);
      assert.equal(codeOf(await referencePayment(t, merchant, late, 'RV')), '700.300.700');
    });

    it('CAPTURE_CUTOFF_MINUTES: a capture after the window is 700.300.400', async () => {
      const pa = (await cardPayment(t, merchant, 'PA', '10.00')).json().id;
      t.clock.advance(31 * MINUTE_MS);
      assert.equal(codeOf(await referencePayment(t, merchant, pa, 'CP', '1.00')), '700.300.400');
    });
  });
}
