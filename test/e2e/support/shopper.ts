import assert from 'node:assert/strict';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { screenshot } from './browser.js';
import type { MerchantSite, Order, ShopperReturn } from './merchant-site.js';

/** The simulated provider's and ACS's outcome buttons: `<button name="outcome" value="…">`. */
export const outcomeButton = (page: Page, value: string) => page.locator(`button[name="outcome"][value="${value}"]`);

export interface AtProvider {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The screenshot of the provider's (or ACS's) page. */
  readonly screenshotPath: string;
  /** What the browser reported as errors on the way (a blocked form, a failed load …). */
  readonly browserErrors: string[];
}

/**
 * A shopper in a fresh browser context opens the merchant's checkout, presses "Pay" and lands on
 * the gateway's simulated provider (or ACS) page, which is photographed as `<name>-provider`.
 */
export async function shopperReachesProvider(
  browser: Browser,
  shop: MerchantSite,
  order: Order,
  gatewayUrl: string,
  name: string,
  contextOptions: BrowserContextOptions = {},
): Promise<AtProvider> {
  const context = await browser.newContext({ locale: 'en-US', ...contextOptions });
  const page = await context.newPage();
  const browserErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') browserErrors.push(`${page.url()}: ${message.text()}`);
  });
  await page.goto(shop.checkoutUrl(order));
  await page.click('#pay');
  // The shop shows its result page at once when the gateway answered without a redirect.
  const landed = await Promise.race([
    page.locator('button[name="outcome"]').first().waitFor({ timeout: 15_000 }).then(() => 'provider'),
    page.getByTestId('outcome').waitFor({ timeout: 15_000 }).then(() => 'shop'),
  ]).catch((error: Error) => error.message);
  if (landed !== 'provider') throw new Error(`no outcome buttons at ${page.url()} (${landed}); the first answer: ${JSON.stringify(order.initial)}`);
  assert.equal(new URL(page.url()).origin, new URL(gatewayUrl).origin, 'the provider page is served by the gateway');
  return { context, page, screenshotPath: await screenshot(page, `${name}-provider`), browserErrors };
}

export interface BackAtMerchant {
  readonly shopperReturn: ShopperReturn;
  /** The screenshot of the merchant's result page. */
  readonly screenshotPath: string;
  /** What the result page tells the shopper: paid or not. */
  readonly shownAsPaid: boolean;
}

/**
 * The shopper chooses an outcome (a click, or a tap on a touch screen) and is sent back to the
 * merchant's result page, photographed as `<name>-result`.
 */
export async function shopperChooses(at: AtProvider, shop: MerchantSite, order: Order, outcome: string, name: string, how: 'click' | 'tap' = 'click'): Promise<BackAtMerchant> {
  const returnsBefore = order.returns.length;
  const backAtShop = at.page.waitForURL((url) => url.href.startsWith(`${shop.url}/result`), { timeout: 15_000 });
  // A browser that blocks the form (a Content-Security-Policy) says so at once: no need to wait.
  const blocked = at.page
    .waitForEvent('console', { predicate: (m) => m.type() === 'error' && /Content Security Policy/.test(m.text()), timeout: 15_000 })
    .then((m) => Promise.reject(new Error(m.text())), () => new Promise<never>(() => undefined));
  if (how === 'tap') await outcomeButton(at.page, outcome).tap();
  else await outcomeButton(at.page, outcome).click();
  await Promise.race([backAtShop, blocked]).catch((error: Error) => {
    throw new Error(`the shopper chose "${outcome}" but did not reach the shop's result page (still at ${at.page.url()}); the browser said:\n${at.browserErrors.join('\n') || '(nothing)'}\n${error.message}`);
  });
  const heading = at.page.getByTestId('outcome');
  await heading.waitFor();
  assert.equal(order.returns.length, returnsBefore + 1, 'the merchant saw exactly one return');
  return {
    shopperReturn: order.returns.at(-1)!,
    screenshotPath: await screenshot(at.page, `${name}-result`),
    shownAsPaid: (await heading.getAttribute('data-paid')) === 'true',
  };
}
