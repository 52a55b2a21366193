/**
 * The 3DS test platform's challenge page in Chromium (issue 37): a merchant page posts the CReq
 * form to the ACS, the shopper types the code and presses Verify, then Continue, and the final
 * CRes arrives at notificationURL. The pages run under their own CSP (no CSP error in the
 * console), axe-core finds no serious or critical violation, nothing is wider than 375 px, the
 * code field is reached by keyboard, and screenshots go to test-artifacts/e2e/three-ds-*.png.
 * The platform runs in-process: no gateway and no build are needed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { decode } from '../../src/connectors/emv3ds/codec.js';
import { escapeHtml } from '../../src/connectors/simulator/pages/html.js';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CHALLENGE_CODE } from '../../emulators/three-ds-host/table.js';
import { browserCReq } from '../support/emv3ds.js';
import { areqFor, base64url, post, startServerStandIn, type ServerStandIn } from '../support/three-ds-host.js';
import { screenshot, useBrowser, seriousViolationsInFrames } from './support/browser.js';

const CHALLENGE_CARD = '4000000000001505';

async function assertFits(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${page.url()} scrolls sideways by ${overflow} px`);
}

describe('the 3DS challenge page in Chromium', () => {
  const browser = useBrowser();
  let host: ThreeDsHost;
  let standIn: ServerStandIn;
  before(async () => {
    host = await startThreeDsHost();
    standIn = await startServerStandIn();
  });
  after(async () => {
    await host.close();
    await standIn.close();
  });

  /** A fresh challenge: the AReq, then a merchant page whose form posts the CReq to the ACS, submitted. */
  async function openChallenge(page: Page): Promise<string> {
    const areq = areqFor(CHALLENGE_CARD, standIn.url, '2.2.0', { notificationURL: standIn.notificationUrl, purchaseAmount: '4999' });
    const ares = decode((await post(`${host.url}/ds/areq`, JSON.stringify(areq))).text);
    assert.ok(ares.ok && ares.value['transStatus'] === 'C');
    const creq = base64url(browserCReq('2.2.0', { threeDSServerTransID: areq.threeDSServerTransID, acsTransID: ares.value['acsTransID'] }));
    await page.setContent(`<form method="post" action="${escapeHtml(String(ares.value['acsURL']))}"><input type="hidden" name="creq" value="${creq}"><input type="hidden" name="threeDSSessionData" value="order-42"><button>Pay</button></form>`);
    await Promise.all([page.waitForURL(`${host.url}/acs/challenge`), page.click('button')]);
    return areq.threeDSServerTransID;
  }

  for (const [label, width] of [['desktop', 1280], ['375px', 375]] as const) {
    it(`at ${label}: accessible, fits, and the right code ends with the CRes at notificationURL`, async () => {
      const context = await browser().newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        // A favicon the browser fetches by itself, racing the test's end, is none of the pages' doing.
        if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) consoleErrors.push(message.text());
      });
      const transId = await openChallenge(page);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Confirm your payment');
      assert.ok((await page.textContent('main'))?.includes('49.99 (currency 978)'));
      await assertFits(page);
      await screenshot(page, `three-ds-challenge-${label}`);
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'code', 'the code field is the first stop of the keyboard');
      await page.keyboard.type(CHALLENGE_CODE);
      await Promise.all([page.waitForURL(`${host.url}/acs/challenge/submit`), page.getByRole('button', { name: 'Verify' }).click()]);
      assert.match((await page.getByRole('status').textContent()) ?? '', /confirmed/);
      await assertFits(page);
      await screenshot(page, `three-ds-result-${label}`);
      await Promise.all([page.waitForURL(standIn.notificationUrl), page.getByRole('button', { name: 'Continue' }).click()]);
      const posted = standIn.notifications.at(-1)!;
      assert.equal(posted.get('threeDSSessionData'), 'order-42');
      const cres = decode(Buffer.from(posted.get('cres') ?? '', 'base64url').toString('utf8'));
      assert.ok(cres.ok && cres.value['transStatus'] === 'Y' && cres.value['threeDSServerTransID'] === transId);
      assert.deepEqual(consoleErrors, [], 'no CSP violation or other error on the pages');
      await context.close();
    });
  }

  it('axe-core: no serious or critical violation on the challenge and the result page', async () => {
    // bypassCSP: only so that axe-core can be injected; the test above runs the pages under their CSP.
    const context = await browser().newContext({ viewport: { width: 375, height: 800 }, bypassCSP: true });
    const page = await context.newPage();
    await openChallenge(page);
    assert.deepEqual(await seriousViolationsInFrames(page), []);
    await page.fill('#code', '0000');
    await Promise.all([page.waitForURL(`${host.url}/acs/challenge/submit`), page.getByRole('button', { name: 'Verify' }).click()]);
    assert.match((await page.getByRole('status').textContent()) ?? '', /not correct/);
    assert.deepEqual(await seriousViolationsInFrames(page), []);
    await screenshot(page, 'three-ds-result-failed-375px');
    await context.close();
  });
});
