import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { form, FORM_HEADERS, json, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { checkoutStatus, createCheckout, RESULT_URL } from '../support/checkouts.js';

/**
 * The test system's simulated wallet sheet (docs/widget.md, "Wallets on the test system"): the
 * page, its policy and who may frame it, its refusals, and the wallet payment it makes through
 * the checkout's own payment route with the wallet's encrypted token; no card number in the
 * page, the message to the widget or the log.
 */

const SHOP_ORIGIN = new URL(RESULT_URL).origin;
/** Every simulator card the sheet holds: none may appear anywhere the shopper's browser or a log sees. */
const SHEET_NUMBERS = ['4200000000000000', '5454545454545454', '4000000000000002'];

async function newCheckout(t: TestApp, merchant: Merchant, fields: Record<string, string> = {}): Promise<string> {
  const response = await createCheckout(t, merchant, fields);
  assert.equal(response.statusCode, 200, response.body);
  return json(response).id as string;
}

function sheetUrl(checkoutId: string, query: Record<string, string> = {}): string {
  return `/v1/checkouts/${checkoutId}/wallet-sheet?${new URLSearchParams({ wallet: 'walletA', shopperResultUrl: RESULT_URL, lang: 'en', ...query })}`;
}

function sheetPost(t: TestApp, checkoutId: string, fields: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: `/v1/checkouts/${checkoutId}/wallet-sheet`, headers: { ...FORM_HEADERS, 'accept-language': 'en' }, payload: form({ wallet: 'walletA', shopperResultUrl: RESULT_URL, lang: 'en', ...fields }) });
}

/** What the last page hands the widget (its body's data attributes), and to which window. */
function messageOf(html: string): { message: Record<string, any>; origin: string; window: string | undefined } {
  const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#96;/g, '`').replace(/&amp;/g, '&');
  const message = /data-wpwl-message="([^"]*)"/.exec(html)?.[1];
  const origin = /data-wpwl-origin="([^"]*)"/.exec(html)?.[1];
  assert.ok(message && origin, html);
  return { message: JSON.parse(unescape(message)), origin: unescape(origin), window: /data-wpwl-window="([^"]*)"/.exec(html)?.[1] };
}

/** `digitRuns`: also no run of 13 to 19 digits at all (a page holds none; a log line has its timestamps). */
function assertNoCardNumber(text: string, where: string, digitRuns = true): void {
  for (const number of SHEET_NUMBERS) assert.ok(!text.includes(number), `${where} holds a card number`);
  if (digitRuns) assert.doesNotMatch(text, /\b\d{13,19}\b/, `${where} holds something card-like`);
}

for (const db of testDatabases()) {
  describe(`the simulated wallet sheet (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    it('the widget session offers the wallets on the test system', async () => {
      const id = await newCheckout(t, merchant);
      const session = json(await t.app.inject({ method: 'GET', url: `/v1/checkouts/${id}/widget` }));
      assert.deepEqual(session.wallets, ['WALLETA', 'WALLETB', 'WALLETC']);
    });

    it('shows the sheet: test banner, amount, cards as brand and last four; no script; only the result origin may frame it', async () => {
      const id = await newCheckout(t, merchant);
      const response = await t.app.inject({ method: 'GET', url: sheetUrl(id) });
      assert.equal(response.statusCode, 200, response.body);
      assert.match(String(response.headers['content-type']), /^text\/html; charset=utf-8/);
      assert.equal(response.headers['cache-control'], 'no-store');
      const policy = String(response.headers['content-security-policy']);
      const nonce = /style-src 'nonce-([^']+)'/.exec(policy)?.[1];
      assert.ok(nonce, policy);
      for (const directive of ["default-src 'none'", "form-action 'self'", `frame-ancestors ${SHOP_ORIGIN}`, "base-uri 'none'"]) assert.ok(policy.includes(directive), `${directive} in ${policy}`);
      assert.ok(!policy.includes('script-src'), 'the sheet runs no script');
      assert.ok(!policy.includes('unsafe-inline'));
      assert.doesNotMatch(response.body, /<script/);
      assert.match(response.body, /Test system/);
      assert.match(response.body, /Pay with walletA/);
      assert.match(response.body, /€92\.00/);
      assert.match(response.body, /VISA ending in 0000/);
      assert.match(response.body, /VISA ending in 0002/);
      assert.match(response.body, /<legend>Choose a test card/);
      assertNoCardNumber(response.body, 'the sheet');
    });

    it('speaks the widget\'s language when the simulator pages do (de)', async () => {
      const id = await newCheckout(t, merchant);
      const response = await t.app.inject({ method: 'GET', url: sheetUrl(id, { lang: 'de' }) });
      assert.match(response.body, /<html lang="de"/);
      assert.match(response.body, /Mit walletA bezahlen/);
      assert.match(response.body, /92,00\s€ zahlen/);
    });

    it('the checkout\'s own shopperResultUrl decides who may frame it', async () => {
      const id = await newCheckout(t, merchant, { shopperResultUrl: 'https://own.example.org/back' });
      const response = await t.app.inject({ method: 'GET', url: sheetUrl(id) });
      assert.match(String(response.headers['content-security-policy']), /frame-ancestors https:\/\/own\.example\.org;/);
    });

    for (const [name, prepare, query, status, code] of [
      ['an unknown checkout', async () => 'AAAA0000AAAA0000AAAA0000AAAA0000.gw01', {}, 400, '200.300.404'],
      ['a wallet the specification does not have', (t: TestApp, m: Merchant) => newCheckout(t, m), { wallet: 'walletD' }, 400, '600.200.200'],
      ['a wallet the checkout does not take (its paymentBrand is VISA)', (t: TestApp, m: Merchant) => newCheckout(t, m, { paymentBrand: 'VISA' }), {}, 400, '600.200.200'],
      ['no result page to frame it', (t: TestApp, m: Merchant) => newCheckout(t, m), { shopperResultUrl: 'javascript:alert(1)' }, 400, '200.300.404'],
    ] as const) {
      it(`refuses ${name}: ${status} ${code}`, async () => {
        const id = await (prepare as (t: TestApp, m: Merchant) => Promise<string>)(t, merchant);
        const response = await t.app.inject({ method: 'GET', url: sheetUrl(id, query as Record<string, string>) });
        assert.equal(response.statusCode, status, response.body);
        assert.equal(json(response).result.code, code);
      });
    }

    it('refuses an expired checkout', async () => {
      const id = await newCheckout(t, merchant);
      t.clock.advance(31 * 60_000);
      const response = await t.app.inject({ method: 'GET', url: sheetUrl(id) });
      assert.equal(json(response).result.code, '200.300.404');
      const paid = await sheetPost(t, id, { outcome: 'pay', card: 'visa-0000' });
      assert.equal(json(paid).result.code, '200.300.404');
    });

    it('Pay with an approving card: the payment goes through the checkout with WALLETA and its token; the widget gets the answer, never the card', async () => {
      const id = await newCheckout(t, merchant);
      const logStart = t.logs.lines.length;
      const response = await sheetPost(t, id, { outcome: 'pay', card: 'visa-0000' });
      assert.equal(response.statusCode, 200, response.body);
      const policy = String(response.headers['content-security-policy']);
      const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
      assert.ok(nonce, policy);
      assert.ok(policy.includes(`frame-ancestors ${SHOP_ORIGIN}`) && policy.includes("form-action 'none'"), policy);
      assert.ok(response.body.includes(`<script nonce="${nonce}" src="../../widget/wallet-sheet.js?v=`), 'the script by nonce, not inline');
      assert.doesNotMatch(response.body, /<script nonce="[^"]*">/);
      const { message, origin, window } = messageOf(response.body);
      assert.equal(origin, SHOP_ORIGIN);
      assert.equal(window, 'parent', 'in the dialog: to the frame\'s parent');
      assert.equal(message.tag, 'wpwl');
      assert.equal(message.type, 'wallet');
      assert.equal(message.outcome, 'answer');
      assert.equal(message.status, 200);
      assert.match(message.body.result.code, SUCCESS_PATTERN);
      assert.deepEqual(Object.keys(message.body).sort(), ['id', 'result']);
      assertNoCardNumber(response.body, 'the last page');
      const status = json(await checkoutStatus(t, merchant, id));
      assert.equal(status.id, message.body.id);
      assert.equal(status.paymentBrand, 'WALLETA');
      assert.match(status.result.code, SUCCESS_PATTERN);
      assertNoCardNumber(t.logs.lines.slice(logStart).join('\n'), 'the log', false);
      assert.doesNotMatch(t.logs.lines.slice(logStart).join('\n'), /paymentToken"?\s*[:=]\s*"?[A-Za-z0-9+/]{20}/, 'the log holds the token');
      // Paid: the sheet is not shown again.
      assert.equal(json(await t.app.inject({ method: 'GET', url: sheetUrl(id) })).result.code, '200.300.404');
    });

    it('Pay with the declining card: the widget gets the decline; the checkout stays payable, walletB pays it', async () => {
      const id = await newCheckout(t, merchant);
      const declined = messageOf((await sheetPost(t, id, { outcome: 'pay', card: 'visa-0002' })).body).message;
      assert.equal(declined.outcome, 'answer');
      assert.equal(declined.body.result.code, '800.100.100');
      assert.equal(typeof declined.body.id, 'string');
      const approved = messageOf((await sheetPost(t, id, { wallet: 'walletB', outcome: 'pay', card: 'master-5454' })).body).message;
      assert.match(approved.body.result.code, SUCCESS_PATTERN);
      assert.equal(json(await checkoutStatus(t, merchant, id)).paymentBrand, 'WALLETB');
    });

    it('Cancel: the widget is told, nothing is paid', async () => {
      const id = await newCheckout(t, merchant);
      const response = await sheetPost(t, id, { outcome: 'cancel' });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(messageOf(response.body).message, { tag: 'wpwl', type: 'wallet', outcome: 'cancel' });
      const session = json(await t.app.inject({ method: 'GET', url: `/v1/checkouts/${id}/widget` }));
      assert.equal(session.state, 'open');
    });

    it('refuses a card that is not on the sheet', async () => {
      const id = await newCheckout(t, merchant);
      const response = await sheetPost(t, id, { outcome: 'pay', card: '4200000000000000' });
      assert.equal(response.statusCode, 400);
      assert.equal(json(response).result.parameterErrors[0].name, 'card');
      assertNoCardNumber(response.body, 'the refusal');
    });

    it('serves the last page\'s script', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/v1/widget/wallet-sheet.js?v=1' });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /javascript/);
      assert.match(response.body, /target\.postMessage\(JSON\.parse\(message\), origin\)/);
      assert.match(response.body, /'opener' \? window\.opener : window\.parent/);
    });

    // The merchant page of another origin than the result page's (docs/widget.md): a popup, else the whole window.
    const MERCHANT_PAGE = 'https://checkout.other-shop.example:8443';

    it('in a popup: the sheet carries its window; its last page posts to the opener, at the origin the widget named only', async () => {
      const id = await newCheckout(t, merchant);
      const sheet = await t.app.inject({ method: 'GET', url: sheetUrl(id, { window: 'popup', opener: MERCHANT_PAGE }) });
      assert.equal(sheet.statusCode, 200, sheet.body);
      const policy = String(sheet.headers['content-security-policy']);
      assert.ok(policy.includes("form-action 'self';") && policy.includes(`frame-ancestors ${SHOP_ORIGIN};`), `the policy of the framed sheet: ${policy}`);
      assert.match(sheet.body, /<input type="hidden" name="window" value="popup">/);
      assert.ok(sheet.body.includes(`<input type="hidden" name="opener" value="${MERCHANT_PAGE}">`), sheet.body);
      const done = await sheetPost(t, id, { outcome: 'pay', card: 'visa-0002', window: 'popup', opener: MERCHANT_PAGE });
      assert.equal(done.statusCode, 200, done.body);
      assert.ok(String(done.headers['content-security-policy']).includes(`frame-ancestors ${SHOP_ORIGIN};`), 'the same policy as in the dialog');
      const { message, origin, window } = messageOf(done.body);
      assert.deepEqual({ origin, window }, { origin: MERCHANT_PAGE, window: 'opener' });
      assert.equal(message.body.result.code, '800.100.100');
      assertNoCardNumber(done.body, 'the last page');
      const paid = messageOf((await sheetPost(t, id, { outcome: 'pay', card: 'visa-0000', window: 'popup', opener: MERCHANT_PAGE })).body).message;
      assert.match(paid.body.result.code, SUCCESS_PATTERN);
      assert.match(json(await checkoutStatus(t, merchant, id)).result.code, SUCCESS_PATTERN);
    });

    for (const [why, fields, name] of [
      ['a window the sheet does not know', { window: 'tab' }, 'window'],
      ['a popup without its opener', { window: 'popup' }, 'opener'],
      ['an opener that is an address, not an origin', { window: 'popup', opener: `${MERCHANT_PAGE}/checkout` }, 'opener'],
      ['an opener with a trailing slash', { window: 'popup', opener: `${MERCHANT_PAGE}/` }, 'opener'],
      ['an opener of another scheme', { window: 'popup', opener: 'javascript:alert(1)' }, 'opener'],
      ['an opener that is a wildcard', { window: 'popup', opener: '*' }, 'opener'],
    ] as const) {
      it(`refuses ${why}, shown or posted: 400 200.300.404 naming ${name}; nothing is paid`, async () => {
        const id = await newCheckout(t, merchant);
        const shown = await t.app.inject({ method: 'GET', url: sheetUrl(id, fields as Record<string, string>) });
        const posted = await sheetPost(t, id, { outcome: 'pay', card: 'visa-0000', ...(fields as Record<string, string>) });
        for (const response of [shown, posted]) {
          assert.equal(response.statusCode, 400, response.body);
          assert.equal(json(response).result.code, '200.300.404');
          assert.equal(json(response).result.parameterErrors[0].name, name);
        }
        assert.equal(json(await t.app.inject({ method: 'GET', url: `/v1/checkouts/${id}/widget` })).state, 'open');
      });
    }

    it('in the whole window: the sheet may send the shopper on to the result page only; paid, declined or cancelled, the post ends there', async () => {
      const id = await newCheckout(t, merchant);
      const sheet = await t.app.inject({ method: 'GET', url: sheetUrl(id, { window: 'page' }) });
      assert.equal(sheet.statusCode, 200, sheet.body);
      const policy = String(sheet.headers['content-security-policy']);
      assert.ok(policy.includes(`form-action 'self' ${SHOP_ORIGIN};`), policy);
      assert.ok(!policy.includes('script-src'), 'the sheet runs no script');
      assert.match(sheet.body, /<input type="hidden" name="window" value="page">/);
      const back = new URL(RESULT_URL);
      back.searchParams.set('id', id);
      back.searchParams.set('resourcePath', `/v1/checkouts/${id}/payment`);
      const cancelled = await sheetPost(t, id, { outcome: 'cancel', window: 'page' });
      assert.equal(cancelled.statusCode, 303);
      assert.equal(cancelled.headers['location'], back.toString());
      assert.equal(json(await t.app.inject({ method: 'GET', url: `/v1/checkouts/${id}/widget` })).state, 'open', 'nothing paid');
      const declined = await sheetPost(t, id, { outcome: 'pay', card: 'visa-0002', window: 'page' });
      assert.equal(declined.statusCode, 303);
      assert.equal(declined.headers['location'], back.toString(), 'the order\'s own query kept, id and resourcePath added');
      assert.equal(declined.body, '');
      assert.equal(json(await checkoutStatus(t, merchant, id)).result.code, '800.100.100', 'the shop learns the decline from its status call');
      const paid = await sheetPost(t, id, { outcome: 'pay', card: 'visa-0000', window: 'page' });
      assert.equal(paid.statusCode, 303);
      assert.equal(paid.headers['location'], back.toString());
      const status = json(await checkoutStatus(t, merchant, id));
      assert.match(status.result.code, SUCCESS_PATTERN);
      assert.equal(status.paymentBrand, 'WALLETA');
    });
  });

  describe(`the wallet sheet on the live system (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, { env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true' } }, (app, created) => {
      t = app;
      merchant = created;
    });
    const https = { 'x-forwarded-proto': 'https' };

    it('is not served, and the widget session offers no wallets', async () => {
      const created = await t.app.inject({ method: 'POST', url: '/v1/checkouts', headers: { authorization: `Bearer ${merchant.accessToken}`, ...FORM_HEADERS, ...https }, payload: form({ entityId: merchant.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB' }) });
      assert.equal(created.statusCode, 200, created.body);
      const id = json(created).id as string;
      const session = json(await t.app.inject({ method: 'GET', url: `/v1/checkouts/${id}/widget`, headers: https }));
      assert.equal(session.wallets, undefined);
      const sheet = await t.app.inject({ method: 'GET', url: sheetUrl(id), headers: https });
      assert.equal(sheet.statusCode, 404);
      assert.equal(json(sheet).result.code, '600.200.200');
      const post = await t.app.inject({ method: 'POST', url: `/v1/checkouts/${id}/wallet-sheet`, headers: { ...FORM_HEADERS, ...https }, payload: form({ wallet: 'walletA', outcome: 'pay', card: 'visa-0000', shopperResultUrl: RESULT_URL }) });
      assert.equal(post.statusCode, 404);
    });
  });
}
