import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); playwright-core never downloads one. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Screenshots of every page the tests visit, for a person to look at (gitignored). */
export const ARTIFACTS_DIR = new URL('../../../test-artifacts/e2e/', import.meta.url).pathname;

/**
 * Where a test writes the pictures the docs show: docs/images/ only when UPDATE_DOC_IMAGES=1 (a
 * person refreshing them on purpose), else a folder in the system's temp directory, so that an
 * ordinary test run leaves the checkout as it was. Created when missing.
 */
export function docImagesDir(): string {
  const dir = process.env['UPDATE_DOC_IMAGES'] === '1' ? new URL('../../../docs/images/', import.meta.url).pathname : join(tmpdir(), 'gateway-doc-images');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * One headless Chromium for the calling test file: launched in `before`, closed in `after`.
 * `--no-sandbox` because CI runs as root, where Chromium's sandbox refuses to start.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    if (!existsSync(CHROMIUM_PATH)) {
      throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium fonts-noto-core fonts-noto-cjk (bash .ci/run does), or set CHROMIUM_PATH`);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not running: call useBrowser() at the top of a describe()');
    return browser;
  };
}

/** Saves a full-page screenshot as test-artifacts/e2e/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical findings in the page and in each of its frames, one line each
 * (a widget's card frames are another origin: each is checked from inside).
 */
export async function seriousViolationsInFrames(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const frame of page.frames()) {
    await frame.evaluate(AXE_SOURCE);
    const violations = await frame.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
      const result = await axe.run(document, { iframes: false });
      return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')) }));
    });
    for (const violation of violations) {
      if (violation.impact === 'serious' || violation.impact === 'critical') found.push(`${frame === page.mainFrame() ? 'page' : 'frame'}: ${violation.id} (${violation.impact}): ${violation.targets.join(', ')}`);
    }
  }
  return found;
}
