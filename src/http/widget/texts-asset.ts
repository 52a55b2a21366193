/**
 * The texts of the widget's 25 languages as the gateway serves them (GET /v1/widget/texts/{locale}):
 * from dist/widget/texts.json, which `npm run build` writes beside the bundles, or built from the
 * widget's i18n modules in-process (tests run src/ through tsx), like the bundles themselves
 * (script-asset.ts). Loaded once per process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildWidgetTexts, textsVersion, type WidgetTexts } from './widget-build.js';

export interface WidgetTextsAsset {
  readonly texts: WidgetTexts;
  /** A hash of every text: what the script's requests carry as `v` (the build put it in the script), and the ETag. */
  readonly version: string;
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT_FILE = fileURLToPath(new URL('../../widget/texts.json', import.meta.url));

let cache: WidgetTextsAsset | undefined;

export function loadWidgetTexts(): WidgetTextsAsset {
  if (!cache) {
    const texts = existsSync(BUILT_FILE) ? (JSON.parse(readFileSync(BUILT_FILE, 'utf8')) as WidgetTexts) : buildWidgetTexts(ROOT);
    cache = { texts, version: textsVersion(texts) };
  }
  return cache;
}

/** The body for one language: its code and every text of it (undefined for a code outside the 25). */
export function widgetTextsBody(asset: WidgetTextsAsset, locale: string): string | undefined {
  const labels = Object.hasOwn(asset.texts, locale) ? asset.texts[locale] : undefined;
  return labels ? JSON.stringify({ locale, labels }) : undefined;
}
