import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { loadWidgetAsset, loadWidgetScript } from '../../src/http/widget/script-asset.js';
import { loadWidgetTexts } from '../../src/http/widget/texts-asset.js';
import { DECLINE_TEXTS } from '../../widget/src/i18n/decline-texts.js';
import { ENGLISH_TEXTS } from '../../widget/src/i18n/english.js';
import { labelsOf } from '../../widget/src/i18n/index.js';
import { WIDGET_LOCALES } from '../../widget/src/rules/locale.js';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The widget's delivery through the whole app: paymentWidgets.js (same bytes for every checkout,
 * SRI integrity of exactly those bytes, CORS, long caching with an ETag), the secure field frame
 * page (a fresh nonce in a strict policy) and its script, and the texts of each language the
 * script fetches (it carries English only). No database is read, but the app is the
 * gateway's, so it runs on both like every integration test.
 */
for (const db of testDatabases()) {
  describe(`widget delivery (${db.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(await db.open());
    });
    after(async () => {
      await t?.close();
      await t?.storage.close();
    });

    it('serves the same script for every checkout, with the integrity the loader computes', async () => {
      const first = await t.app.inject({ method: 'GET', url: '/v1/paymentWidgets.js?checkoutId=AAAA0000AAAA0000AAAA0000AAAA0000.uat01-vm-tx01' });
      const second = await t.app.inject({ method: 'GET', url: '/v1/paymentWidgets.js?checkoutId=BBBB0000BBBB0000BBBB0000BBBB0000.uat01-vm-tx02' });
      assert.equal(first.statusCode, 200);
      assert.match(String(first.headers['content-type']), /^application\/javascript; charset=utf-8/);
      assert.deepEqual(first.rawPayload, second.rawPayload);
      const script = loadWidgetScript();
      assert.deepEqual(first.rawPayload, script.bytes);
      assert.equal(script.integrity, `sha384-${createHash('sha384').update(first.rawPayload).digest('base64')}`);
      assert.equal(first.headers['access-control-allow-origin'], '*');
      assert.match(String(first.headers['cache-control']), /max-age=31536000/);
      assert.equal(first.headers['etag'], `"${script.version}"`);
    });

    it('keeps what a shopper downloads for a card payment under 40 KB gzipped: script, frame script and the largest language', async () => {
      const script = gzipSync(loadWidgetScript().bytes).length;
      const frame = gzipSync(loadWidgetAsset('frame').bytes).length;
      const texts = await Promise.all(WIDGET_LOCALES.filter((locale) => locale !== 'en').map(async (locale) => gzipSync((await t.app.inject({ method: 'GET', url: `/v1/widget/texts/${locale}` })).rawPayload).length));
      const total = script + frame + Math.max(...texts);
      assert.ok(total < 40 * 1024, `${total} B gzipped in all`);
    });

    it("answers each language's texts exactly as the widget's i18n modules have them", async () => {
      const { version } = loadWidgetTexts();
      for (const locale of WIDGET_LOCALES) {
        const response = await t.app.inject({ method: 'GET', url: `/v1/widget/texts/${locale}?v=${version}` });
        assert.equal(response.statusCode, 200, locale);
        assert.match(String(response.headers['content-type']), /^application\/json; charset=utf-8/);
        assert.equal(response.headers['access-control-allow-origin'], '*');
        assert.match(String(response.headers['cache-control']), /max-age=31536000, immutable/);
        assert.deepEqual(response.json(), { locale, labels: labelsOf(locale) }, locale);
      }
      const german = (await t.app.inject({ method: 'GET', url: '/v1/widget/texts/de' })).json() as { labels: Record<string, string> };
      assert.equal(german.labels['declineInsufficientFunds'], DECLINE_TEXTS['de']!.declineInsufficientFunds);
      assert.equal(german.labels['submit'], 'Jetzt bezahlen');
    });

    it('caches the texts for an hour without the current version, and answers 304 to a request that has it', async () => {
      const { version } = loadWidgetTexts();
      const unversioned = await t.app.inject({ method: 'GET', url: '/v1/widget/texts/ja?v=old' });
      assert.equal(unversioned.statusCode, 200);
      assert.equal(unversioned.headers['cache-control'], 'public, max-age=3600');
      assert.equal(unversioned.headers['etag'], `"${version}-ja"`);
      const again = await t.app.inject({ method: 'GET', url: '/v1/widget/texts/ja', headers: { 'if-none-match': `"${version}-ja"` } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.rawPayload.length, 0);
    });

    it('refuses a language outside the 25 with a 400 naming locale', async () => {
      for (const locale of ['xx', 'DE', 'de-AT', 'da', '__proto__', 'constructor', 'toString', '%3Cscript%3E', 'a'.repeat(90)]) {
        const response = await t.app.inject({ method: 'GET', url: `/v1/widget/texts/${locale}` });
        assert.equal(response.statusCode, 400, locale);
        const result = (response.json() as { result: { code: string; parameterErrors?: { name: string; value: string; message: string }[] } }).result;
        assert.equal(result.code, '200.300.404', locale);
        assert.equal(result.parameterErrors?.[0]?.name, 'locale', locale);
        assert.ok(result.parameterErrors[0]!.value.length <= 32);
        assert.match(result.parameterErrors[0]!.message, /must be one of en, de, fr/);
      }
    });

    it('builds the script with English alone and the version of the texts it asks for', () => {
      const script = loadWidgetScript().bytes.toString('utf8');
      assert.ok(script.includes(ENGLISH_TEXTS.declineInsufficientFunds), 'English is bundled');
      for (const locale of ['de', 'ja', 'ar'] as const) assert.ok(!script.includes(DECLINE_TEXTS[locale]!.declineInsufficientFunds), `${locale} is not bundled`);
      assert.ok(!script.includes(labelsOf('fr').cardNumber), 'nor the labels of another language');
      assert.ok(script.includes(`"${loadWidgetTexts().version}"`), 'the texts version is in the script');
    });

    it('answers 304 to a request that has the current version', async () => {
      const etag = `"${loadWidgetScript().version}"`;
      const response = await t.app.inject({ method: 'GET', url: '/v1/paymentWidgets.js?checkoutId=X', headers: { 'if-none-match': etag } });
      assert.equal(response.statusCode, 304);
      assert.equal(response.rawPayload.length, 0);
    });

    it('serves the frame page with a fresh nonce in a strict policy that any page may embed', async () => {
      const pages = await Promise.all([0, 1].map(() => t.app.inject({ method: 'GET', url: '/v1/widget/frame' })));
      const nonces = pages.map((page) => {
        assert.equal(page.statusCode, 200);
        assert.match(String(page.headers['content-type']), /^text\/html/);
        assert.equal(page.headers['cache-control'], 'no-store');
        const policy = String(page.headers['content-security-policy']);
        const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
        assert.ok(nonce, policy);
        for (const directive of ["default-src 'none'", "connect-src 'self'", 'frame-ancestors *', "base-uri 'none'", "form-action 'none'", `style-src 'nonce-${nonce}'`]) assert.ok(policy.includes(directive), `${directive} in ${policy}`);
        assert.ok(page.body.includes(`<script nonce="${nonce}" src="frame.js?v=`), 'the frame script carries the nonce');
        return nonce;
      });
      assert.notEqual(nonces[0], nonces[1]);
    });

    it('serves the frame script, cacheable by its version', async () => {
      const page = await t.app.inject({ method: 'GET', url: '/v1/widget/frame' });
      const src = /src="(frame\.js\?v=[0-9a-f]+)"/.exec(page.body)?.[1];
      assert.ok(src);
      const script = await t.app.inject({ method: 'GET', url: `/v1/widget/${src}` });
      assert.equal(script.statusCode, 200);
      assert.match(String(script.headers['content-type']), /javascript/);
      assert.match(String(script.headers['cache-control']), /immutable/);
      assert.ok(script.body.length > 1000);
    });
  });
}
