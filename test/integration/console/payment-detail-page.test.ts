/**
 * The payment detail page rendered to a string (issue 31): the summary with card data only as BIN
 * and last four, the family, the timeline, the notifications; each action's form only for the
 * roles that may use it, with the CSRF token and a fresh nonce; field messages on a form sent
 * back; the flash after an action worded from the database.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { PaymentDetailPage, type PaymentDetailPageProps } from '../../../src/console/pages/payment-detail/payment-detail-page.js';
import { flashLocation, flashOf } from '../../../src/console/pages/payment-detail/flash.js';
import { ROLES, type Role } from '../../../src/domain/access/roles.js';
import { mayPerform } from '../../../src/domain/access/permissions.js';
import { loadPaymentDetail, type PaymentDetail } from '../../../src/operations/console/load-payment-detail.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, referencePayment, type Merchant } from '../../support/payments.js';
import { findSecrets } from '../../support/secrets.js';
import { json, withAppAndMerchant, type TestApp } from '../../support/test-app.js';

let nonces = 0;

function render(detail: PaymentDetail, role: Role, extra: Partial<PaymentDetailPageProps> = {}): string {
  const user = { id: 'a'.repeat(32), email: 'person@example.com', role, merchantId: role.startsWith('operator') ? null : detail.merchantId, sessionId: 'b'.repeat(32) };
  // .test.ts files hold no JSX (the test runner's glob): the element is made with h().
  return renderToString(h(PaymentDetailPage, {
    detail, user, system: 'test', path: `/console/payments/${detail.payment.id}`, csrfToken: 'csrf-token-1', nonce: () => String(++nonces).padStart(32, '0'), ...extra,
  }));
}

const formFor = (id: string, action: string) => `action="/console/payments/${id}/${action}"`;

for (const database of testDatabases()) {
  describe(`the payment detail page (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });

    it('shows the summary, the family and the timeline; card data only as BIN and last four', async () => {
      const pa = json(await cardPayment(t, merchant, 'PA', '20.00'));
      const cp = json(await referencePayment(t, merchant, pa['id'], 'CP', '5.00'));
      const detail = await loadPaymentDetail(t.app.gateway, { transactionId: pa['id'], visibility: { kind: 'all' } });
      const html = render(detail, 'operator-admin');
      assert.match(html, /20\.00 EUR/);
      assert.match(html, /420000 ·· 0000/);
      assert.match(html, /Jane Jones/);
      assert.match(html, new RegExp(`href="/console/payments/${cp['id']}"`), 'the capture is a link in the family');
      assert.match(html, /<ol class="timeline">/);
      assert.match(html, /PA requested: 20\.00 EUR/);
      assert.match(html, /Test system: no real money moves/);
      assert.deepEqual(findSecrets(html), []);
      assert.doesNotMatch(html, /4200000000000000/);
    });

    it('renders each action only for the roles that may perform it, each form with the CSRF token and its own nonce', async () => {
      const pa = json(await cardPayment(t, merchant, 'PA', '20.00'));
      const db = json(await cardPayment(t, merchant, 'DB', '20.00'));
      const onPa = await loadPaymentDetail(t.app.gateway, { transactionId: pa['id'], visibility: { kind: 'all' } });
      const onDb = await loadPaymentDetail(t.app.gateway, { transactionId: db['id'], visibility: { kind: 'all' } });
      for (const role of ROLES) {
        const paHtml = render(onPa, role);
        const dbHtml = render(onDb, role);
        assert.equal(paHtml.includes(formFor(pa['id'], 'capture')), mayPerform(role, 'payments.capture'), `${role} capture`);
        assert.equal(paHtml.includes(formFor(pa['id'], 'reverse')), mayPerform(role, 'payments.reverse'), `${role} reverse`);
        assert.equal(dbHtml.includes(formFor(db['id'], 'refund')), mayPerform(role, 'payments.refund'), `${role} refund`);
        assert.equal(paHtml.includes(formFor(pa['id'], 'refund')), false, 'no refund of an uncaptured preauthorization');
        const forms = paHtml.match(/<form method="post" action="\/console\/payments\/[^"]+"/g) ?? [];
        const csrf = paHtml.match(/name="_csrf" value="csrf-token-1"/g) ?? [];
        assert.ok(csrf.length >= forms.length, `${role}: every form carries the token`);
        const used = [...paHtml.matchAll(/name="nonce" value="([0-9]{32})"/g)].map((m) => m[1]);
        assert.equal(new Set(used).size, used.length, 'a nonce per form');
      }
    });

    it('sends a form back with its field message, and words the flash from the database', async () => {
      const db = json(await cardPayment(t, merchant, 'DB', '20.00'));
      const rf = json(await referencePayment(t, merchant, db['id'], 'RF', '2.00'));
      const detail = await loadPaymentDetail(t.app.gateway, { transactionId: db['id'], visibility: { kind: 'all' } });
      const html = render(detail, 'finance', { formState: { action: 'refund', values: { amount: '12,50' }, errors: { amount: 'must be an amount such as 12.50' } } });
      assert.match(html, /id="refund-amount"[^>]*value="12,50"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*value="12,50"/);
      assert.match(html, /must be an amount such as 12\.50/);

      const done = new URL(flashLocation(db['id'], 'refund', { kind: 'done', transactionId: rf['id'], status: 'success', resultCode: rf['result'].code, description: '', repeated: false }), 'http://x');
      const flash = flashOf(Object.fromEntries(done.searchParams), detail);
      assert.equal(flash?.kind, 'success');
      assert.match(flash!.message, new RegExp(`Refund ${rf['id']}: success, ${rf['result'].code.replaceAll('.', '\\.')}`));
      const refused = new URL(flashLocation(db['id'], 'refund', { kind: 'refused', resultCode: '700.400.200', description: '' }), 'http://x');
      assert.match(flashOf(Object.fromEntries(refused.searchParams), detail)!.message, /^Refund refused: 700\.400\.200 /);
      assert.equal(flashOf({ refused: 'refund', code: '<script>' }, detail), undefined, 'only a catalogued code is shown');
      assert.equal(flashOf({ done: 'refund', tx: 'f'.repeat(32) }, detail), undefined, "another family's transaction is not shown");
    });
  });
}
