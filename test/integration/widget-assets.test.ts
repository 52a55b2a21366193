import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { loadWidgetScript } from '../../src/http/widget/script-asset.js';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The widget's delivery through the whole app: paymentWidgets.js (same bytes for every checkout,
 * SRI integrity of exactly those bytes, CORS, long caching with an ETag), the secure field frame
 * page (a fresh nonce in a strict policy) and its script. No database is read, but the app is the
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
      assert.ok(gzipSync(first.rawPayload).length < 40 * 1024, 'gzipped under 40 KB');
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
