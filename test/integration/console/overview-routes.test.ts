/**
 * The overview through the whole app with real console sessions: /console opens it for every role
 * that may see payments, a merchant's person sees their merchant's figures only (whatever the
 * query string says), an operator sees all and may filter to one merchant, a broken period is
 * answered with 400 and a message at its field, and the page loads its charts from the console
 * itself (no inline script; the period form is a GET and carries no CSRF token).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayPerform } from '../../../src/domain/access/permissions.js';
import { ROLES } from '../../../src/domain/access/roles.js';
import { consoleGet, signInAs } from '../../support/console.js';
import { testDatabases } from '../../support/databases.js';
import { insertPayments } from '../../support/payment-search.js';
import { withAppAndMerchant, type TestApp } from '../../support/test-app.js';

const OPERATOR = /^operator-/;
const TODAY = new Date('2026-11-22T08:00:00Z');

for (const database of testDatabases()) {
  describe(`console overview routes (${database.name})`, () => {
    let t: TestApp;
    let merchantId: string;
    let otherId: string;
    withAppAndMerchant(() => database.open(), {}, (app, merchant) => {
      t = app;
      merchantId = merchant.entityId;
    });

    it('is the home of every role that may see payments, each seeing only what it may', async () => {
      otherId = (await t.createMerchant('Other shop')).entityId;
      await insertPayments(t.storage, [
        { name: 'overview-own', entityId: merchantId, createdAt: TODAY, currency: 'SEK', amountMinor: 4321n },
        { name: 'overview-own-declined', entityId: merchantId, createdAt: TODAY, currency: 'SEK', status: 'rejected', resultCode: '800.100.100' },
        { name: 'overview-other', entityId: otherId, createdAt: TODAY, currency: 'NOK', amountMinor: 9876n },
      ]);
      for (const role of ROLES) {
        const session = await signInAs(t, { role, merchantId });
        t.clock.advance(30_000); // a fresh TOTP step for the next operator
        const home = await consoleGet(t, session, '/console');
        assert.equal(home.statusCode, 303);
        assert.equal(home.headers.location, '/console/overview', `${role}'s home`);
        // A merchant's person who names another merchant still gets their own figures.
        const page = await consoleGet(t, session, `/console/overview?period=today&merchant=${OPERATOR.test(role) ? '' : otherId}`);
        assert.equal(page.statusCode, mayPerform(role, 'overview.view') ? 200 : 403, role);
        if (page.statusCode !== 200) continue;
        assert.ok(page.body.includes('43.21'), `${role} sees its merchant's volume`);
        assert.ok(page.body.includes('50.0 %'), `${role} sees its merchant's approval rate`);
        assert.equal(page.body.includes('98.76'), OPERATOR.test(role), `${role} and another merchant's volume`);
        assert.equal(page.body.includes('Top merchants'), OPERATOR.test(role), `${role} and the top merchants`);
      }
    });

    it('lets an operator filter to one merchant', async () => {
      const session = await signInAs(t, { role: 'operator-read-only' });
      const page = await consoleGet(t, session, `/console/overview?period=7d&merchant=${otherId}`);
      assert.equal(page.statusCode, 200, page.body);
      assert.ok(page.body.includes('98.76'));
      assert.ok(!page.body.includes('43.21'));
      assert.ok(!page.body.includes('Top merchants'));
      assert.match(page.body, new RegExp(`<option value="${otherId}" selected>Other shop</option>`));
    });

    it('answers a broken period or merchant with 400 and a message at the field', async () => {
      t.clock.advance(30_000);
      const session = await signInAs(t, { role: 'operator-admin' });
      const cases: [string, string, string][] = [
        ['period=year', 'period', 'choose today, 7 days, 30 days or custom'],
        ['period=custom&to=2026-11-20', 'from', 'a date like 2026-11-27'],
        ['period=custom&from=2026-11-20&to=2026-11-31', 'to', 'a date like 2026-11-27'],
        ['period=custom&from=2026-11-20&to=2026-11-19', 'to', 'not before the date from'],
        ['period=custom&from=2024-01-01&to=2026-11-19', 'to', 'at most 366 days after the date from'],
        ['merchant=shop', 'merchant', 'not a merchant id (32 hexadecimal characters)'],
        [`merchant=${'f'.repeat(32)}`, 'merchant', 'no merchant has this id'],
      ];
      for (const [query, field, message] of cases) {
        const page = await consoleGet(t, session, `/console/overview?${query}`);
        assert.equal(page.statusCode, 400, query);
        assert.ok(page.body.includes(`<small id="o-${field}-error" class="field-error">${message}</small>`), `${query}: ${page.body.slice(0, 200)}`);
        assert.ok(page.body.includes('aria-invalid="true"'), query);
      }
    });

    it('sends a visitor who is not signed in to the sign-in page', async () => {
      const page = await t.app.inject({ method: 'GET', url: '/console/overview?period=today' });
      assert.equal(page.statusCode, 303);
      assert.equal(page.headers.location, '/console/sign-in?next=%2Fconsole%2Foverview%3Fperiod%3Dtoday');
    });

    it('draws its charts with scripts of its own origin and no inline script; the period form is a GET without a CSRF token', async () => {
      const session = await signInAs(t, { role: 'merchant-admin', merchantId });
      const page = await consoleGet(t, session, '/console/overview?period=today');
      assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
      const scripts = [...page.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
      assert.ok(scripts.length >= 3);
      for (const [, attributes, body] of scripts) {
        assert.match(attributes!, /src="\/console\/assets\/[a-z.]+"/);
        assert.equal(body, '');
      }
      assert.match(page.body, /<canvas id="currencies-chart" data-chart="\{&quot;kind&quot;:&quot;bar&quot;/);
      const periodForm = /<form method="get" action="\/console\/overview"[^]*?<\/form>/.exec(page.body)?.[0] ?? '';
      assert.ok(periodForm.includes('name="period"'));
      assert.ok(!periodForm.includes('_csrf'));
      for (const name of ['chart.js', 'overview.js']) {
        const asset = await t.app.inject({ method: 'GET', url: `/console/assets/${name}` });
        assert.equal(asset.statusCode, 200, name);
        assert.match(String(asset.headers['content-type']), /^text\/javascript/);
      }
    });
  });
}
