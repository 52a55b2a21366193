/**
 * The widget's bundles (widget/src → paymentWidgets.js and frame.js), minified for browsers. Used
 * by `npm run build` (dist/widget/) and, where no built bundle exists (tests run src/ through
 * tsx), by the asset loader in-process: one set of options, so both produce the same bytes.
 */
import { buildSync, type BuildOptions } from 'esbuild';
import { basename, join } from 'node:path';

export const WIDGET_ASSETS = ['paymentWidgets', 'frame'] as const;
export type WidgetAssetName = (typeof WIDGET_ASSETS)[number];

const ENTRY_FILES: Readonly<Record<WidgetAssetName, string>> = { paymentWidgets: 'payment-widgets.ts', frame: 'frame.ts' };

export function widgetBuildOptions(root: string): BuildOptions {
  return {
    entryPoints: Object.fromEntries(WIDGET_ASSETS.map((name) => [name, join(root, 'widget', 'src', ENTRY_FILES[name])])),
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    // Browsers of the last years: constructable style sheets and cascade layers need Chromium 99, Firefox 101, Safari 16.4.
    target: ['chrome99', 'firefox101', 'safari16'],
    loader: { '.css': 'text' },
    // The texts of 25 languages stay UTF-8 (served with charset=utf-8): \u escapes would double them.
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
