/**
 * What the console's Chromium tests (test/e2e/console-*.test.ts) share: a page at a viewport,
 * signed in with a session from ./console.ts (signInAs, TOTP included for operators); axe-core's
 * serious and critical findings; the page not wider than the screen; the screenshots docs/console.md
 * shows (docs/images/console/ with UPDATE_DOC_IMAGES=1). The browser itself comes from test/e2e/support/browser.ts (useBrowser).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { join } from 'node:path';
import { docImagesDir } from '../e2e/support/browser.js';
import type { ConsoleSession } from './console.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A browser window's size; `label` ends the screenshot's file name (`audit-375.png`). */
export interface Viewport {
  readonly label: 'desktop' | '375';
  readonly width: number;
  readonly height: number;
}

export const DESKTOP: Viewport = { label: 'desktop', width: 1280, height: 900 };
export const PHONE: Viewport = { label: '375', width: 375, height: 900 };

/**
 * A new page of its own context, nobody signed in. The context bypasses the page's CSP only so
 * that tests which ask for it can inject scripts; `underConsoleCsp` keeps the console's CSP, for
 * tests that watch for CSP errors (axe-core is evaluated through the DevTools protocol either way).
 */
export async function visitorPage(browser: Browser, viewport: Pick<Viewport, 'width' | 'height'>, options: { underConsoleCsp?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, ...(options.underConsoleCsp ? {} : { bypassCSP: true }) });
  return context.newPage();
}

/** A new page (in a context of its own: close it with `page.context().close()`) carrying `session`'s cookie for `base`. */
export async function signedInPage(browser: Browser, base: string, session: Pick<ConsoleSession, 'cookie'>, viewport: Pick<Viewport, 'width' | 'height'>, options: { underConsoleCsp?: boolean } = {}): Promise<Page> {
  const page = await visitorPage(browser, viewport, options);
  const [name, value] = session.cookie.split('=') as [string, string];
  await page.context().addCookies([{ name, value, url: base }]);
  return page;
}

/** axe-core's serious and critical findings on the page as it is now, one line each. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the console's CSP (script-src 'self') would refuse an injected <script>.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

/** No serious or critical axe-core violation; `what` names the page in the failure. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await seriousAccessibilityViolations(page), [], what);
}

/** The elements reaching past the screen's right edge, outside a table's own scrolling region (.table-wrap). */
export function elementsWiderThanScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !e.closest('.table-wrap'))
    .map((e) => `${e.tagName}.${e.className}#${e.id}:${Math.round(e.getBoundingClientRect().right)}`).slice(0, 8));
}

/** The page does not scroll sideways (the failure names what sticks out). */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) assert.fail(`${what}: the page scrolls sideways by ${overflow} px: ${(await elementsWiderThanScreen(page)).join(', ')}`);
}

/** Stricter: no element but a wide table (which scrolls in its region) reaches past the screen, and the page does not scroll sideways. */
export async function expectNothingWiderThanScreen(page: Page, what: string): Promise<void> {
  assert.deepEqual(await elementsWiderThanScreen(page), [], `${what}: nothing wider than the screen`);
  await expectNoSidewaysScroll(page, what);
}

/**
 * Saves console/<name>-<viewport label>.png under docImagesDir(): docs/images/console/ with
 * UPDATE_DOC_IMAGES=1, else the temp folder, so a test run leaves the checkout clean (the viewport
 * unless `fullPage` or `clip` say otherwise).
 */
export async function saveConsoleScreenshot(page: Page, name: string, viewport: Pick<Viewport, 'label'>, options: { fullPage?: boolean; clip?: { x: number; y: number; width: number; height: number } } = {}): Promise<void> {
  const dir = join(docImagesDir(), 'console');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}-${viewport.label}.png`), ...options });
}

/** Both at once, as the settlement, schedules and pending pages are checked after every step. */
export async function expectAccessibleAndFits(page: Page, what: string): Promise<void> {
  await expectAccessible(page, what);
  await expectNothingWiderThanScreen(page, what);
}
