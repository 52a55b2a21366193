import type { BrowserContext, Frame, FrameLocator, Page } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** A shopper at a merchant page with the widget: the forms, the secure frames, what the page shows. */
export interface WidgetPage {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly errors: string[];
  /** The card form's secure number and CVV inputs (inside the gateway's frames). */
  numberInput(): ReturnType<FrameLocator['locator']>;
  cvvInput(form?: string): ReturnType<FrameLocator['locator']>;
  close(): Promise<void>;
}

export interface WidgetPageOptions {
  readonly locale?: string;
  readonly waitReady?: boolean;
  readonly viewport?: { readonly width: number; readonly height: number } | undefined;
  /** The shopper's prefers-color-scheme. */
  readonly colorScheme?: 'light' | 'dark' | undefined;
  /** Runs in every page of the shopper's browser before its own scripts (a popup blocker …). */
  readonly initScript?: string | undefined;
}

export async function openWidgetPage(browser: Browser, url: string, options: WidgetPageOptions = {}): Promise<WidgetPage> {
  const context = await browser.newContext({ locale: options.locale ?? 'en-US', viewport: options.viewport ?? { width: 640, height: 900 }, colorScheme: options.colorScheme ?? 'light' });
  if (options.initScript) await context.addInitScript(options.initScript);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
  });
  // A failed load says which address (the console message does not); the browser's own favicon probe is not the page's.
  page.on('response', (response) => {
    if (response.status() >= 400 && !/favicon\.ico$/.test(response.url()) && !/\/checkouts\/[^/]+\/(payment|widget)$/.test(response.url())) errors.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(url);
  if (options.waitReady !== false) await page.waitForSelector('.wpwl-container[data-wpwl-ready]', { timeout: 15_000 });
  return {
    context,
    page,
    errors,
    numberInput: () => page.frameLocator('.wpwl-form-card iframe.wpwl-control-cardNumber').locator('input'),
    cvvInput: (form = '.wpwl-form-card') => page.frameLocator(`${form} iframe.wpwl-control-cvv`).locator('input'),
    close: () => context.close(),
  };
}

/** Fills the card form as a shopper types it. */
export async function typeCard(at: WidgetPage, card: { number: string; expiry: string; cvv: string; holder: string }): Promise<void> {
  await at.numberInput().pressSequentially(card.number);
  await at.page.locator('.wpwl-form-card .wpwl-control-expiry').pressSequentially(card.expiry);
  await at.cvvInput().pressSequentially(card.cvv);
  await at.page.locator('.wpwl-form-card .wpwl-control-cardHolder').fill(card.holder);
}

/** The gateway frames of the page (for checks of their origin). */
export function gatewayFrames(page: Page, gatewayOrigin: string): Frame[] {
  return page.frames().filter((frame) => frame.url().startsWith(gatewayOrigin));
}
