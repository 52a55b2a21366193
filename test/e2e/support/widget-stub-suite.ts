import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { loadWidgetScript } from '../../../src/http/widget/script-asset.js';
import { useBrowser } from './browser.js';
import { startStubGateway, type StubCheckout, type StubGateway } from './widget-stub-gateway.js';
import { WidgetShop } from './widget-shop.js';
import { openWidgetPage, type WidgetPage } from './widget-shopper.js';

export const CARD = { number: '4200000000000000', expiry: '1230', cvv: '123', holder: 'Jane Jones' };
export const STORED = { id: 'f'.repeat(32), brand: 'VISA', last4Digits: '1111', expiryMonth: '12', expiryYear: '2030', holder: 'Jane Jones' };

export interface PageExtras {
  readonly registrations?: Record<string, string>[];
  readonly customParameters?: Record<string, string>;
  readonly cancelCardSubmit?: boolean;
  readonly integrity?: string;
  readonly pageCss?: string;
  /** The shopper's browser: window size and colour scheme preference. */
  readonly viewport?: { readonly width: number; readonly height: number };
  readonly colorScheme?: 'light' | 'dark';
  /** The shopper's country the checkout names (GET …/widget's shopperCountry). */
  readonly country?: string;
}

export interface StubSuite {
  readonly browser: () => Browser;
  readonly gateway: () => StubGateway;
  readonly shop: () => WidgetShop;
  /** A fresh checkout and the merchant page with the widget for it, ready. */
  open(brands: string, options?: Record<string, unknown>, extra?: PageExtras): Promise<{ checkout: StubCheckout; at: WidgetPage }>;
  /** Waits until the shopper is at the shop's result page. */
  backAtShop(at: WidgetPage): Promise<URL>;
}

/** Chromium, the stub of the checkout endpoints and the merchant's shop, for one describe(). */
export function useStubSuite(): StubSuite {
  const browser = useBrowser();
  let gateway: StubGateway | undefined;
  let shop: WidgetShop | undefined;
  before(async () => {
    gateway = await startStubGateway();
    shop = await WidgetShop.start(gateway.url);
  });
  after(async () => {
    await shop?.stop();
    await gateway?.stop();
  });
  const suite: StubSuite = {
    browser,
    gateway: () => gateway!,
    shop: () => shop!,
    async open(brands, options = {}, extra = {}) {
      const checkout = gateway!.checkout({ registrations: extra.registrations ?? [], ...(extra.country ? { country: extra.country } : {}) });
      const url = shop!.page({ checkoutId: checkout.id, brands, options, integrity: extra.integrity ?? loadWidgetScript().integrity, customParameters: extra.customParameters, cancelCardSubmit: extra.cancelCardSubmit, pageCss: extra.pageCss });
      return { checkout, at: await openWidgetPage(browser(), url, { viewport: extra.viewport, colorScheme: extra.colorScheme }) };
    },
    async backAtShop(at) {
      await at.page.waitForURL((url) => url.href.startsWith(`${shop!.url}/result`), { timeout: 15_000 });
      return new URL(at.page.url());
    },
  };
  return suite;
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
