/**
 * The widget's bundles (widget/src → paymentWidgets.js and frame.js), minified for browsers, and
 * the texts of its 25 languages (widget/src/i18n → texts.json, which GET /v1/widget/texts/{locale}
 * serves a language of). Used by `npm run build` (dist/widget/) and, where no build exists (tests
 * run src/ through tsx), by the asset loaders in-process: one set of options, so both produce the
 * same bytes.
 */
import { buildSync, transformSync, type BuildOptions } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runInNewContext } from 'node:vm';

export const WIDGET_ASSETS = ['paymentWidgets', 'frame'] as const;
export type WidgetAssetName = (typeof WIDGET_ASSETS)[number];

/** Each language's texts by its code ('de' → label name → text). */
export type WidgetTexts = Readonly<Record<string, Readonly<Record<string, string>>>>;

const ENTRY_FILES: Readonly<Record<WidgetAssetName, string>> = { paymentWidgets: 'payment-widgets.ts', frame: 'frame.ts' };

const TARGET = ['chrome99', 'firefox101', 'safari16'];

/**
 * The default style sheet (widget/src/payment-widgets.css), minified: esbuild's text loader would
 * keep its comments and indentation (a tenth of the script), and plugins, which could minify an
 * imported file, do not run in buildSync.
 */
function minifiedStyles(root: string): string {
  const css = readFileSync(join(root, 'widget', 'src', 'payment-widgets.css'), 'utf8');
  return transformSync(css, { loader: 'css', minify: true, target: TARGET }).code.trim();
}

export function widgetBuildOptions(root: string): BuildOptions {
  return {
    entryPoints: Object.fromEntries(WIDGET_ASSETS.map((name) => [name, join(root, 'widget', 'src', ENTRY_FILES[name])])),
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    // Browsers of the last years: constructable style sheets and cascade layers need Chromium 99, Firefox 101, Safari 16.4.
    target: TARGET,
    // Other style sheets (the wallet buttons') go in as they are.
    loader: { '.css': 'text' },
    define: {
      __WPWL_STYLES__: JSON.stringify(minifiedStyles(root)),
      // The script asks for its language's texts by this version, so the answer may be cached for a year.
      __WPWL_TEXTS_VERSION__: JSON.stringify(textsVersion(buildWidgetTexts(root))),
    },
    // The English texts stay UTF-8 (served with charset=utf-8): \u escapes would double them.
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/** Builds every widget bundle in memory: name → bytes. */
export function buildWidgetBundles(root: string): Map<WidgetAssetName, Buffer> {
  const result = buildSync({ ...widgetBuildOptions(root), outdir: join(root, 'dist', 'widget'), write: false });
  const bundles = new Map<WidgetAssetName, Buffer>();
  for (const file of result.outputFiles) {
    const name = basename(file.path, '.js') as WidgetAssetName;
    if (WIDGET_ASSETS.includes(name)) bundles.set(name, Buffer.from(file.contents));
  }
  return bundles;
}

/**
 * The 25 languages' texts, read from the widget's own i18n modules (the one place they are
 * written): the modules are bundled and run in an empty context, since they are TypeScript that
 * the gateway's build (file by file, into dist/) does not carry along.
 */
export function buildWidgetTexts(root: string): WidgetTexts {
  const result = buildSync({
    stdin: { contents: "export { textsByLocale } from './index.ts';", resolveDir: join(root, 'widget', 'src', 'i18n'), loader: 'ts' },
    bundle: true,
    format: 'iife',
    globalName: 'widgetI18n',
    platform: 'neutral',
    write: false,
    logLevel: 'warning',
  });
  const texts = runInNewContext(`${result.outputFiles[0]!.text};JSON.stringify(widgetI18n.textsByLocale())`) as string;
  return JSON.parse(texts) as WidgetTexts;
}

/** A hash of every text: the `v` of the script's texts requests, and their ETag. */
export function textsVersion(texts: WidgetTexts): string {
  return createHash('sha256').update(JSON.stringify(texts)).digest('hex').slice(0, 20);
}
