/**
 * The widget's bundles as the gateway serves them: bytes, their SRI integrity and a content hash.
 * From dist/ (`npm start`) the bundles `npm run build` wrote to dist/widget/ are read; from src/
 * (tests through tsx) or when they are missing, they are built in-process, so this never fails
 * for want of a build. Loaded once per process.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildWidgetBundles, WIDGET_ASSETS, type WidgetAssetName } from './widget-build.js';

export interface WidgetScript {
  readonly bytes: Buffer;
  /** 'sha384-' + base64: what a checkout's `integrity` and the script tag carry. */
  readonly integrity: string;
  /** A hash of the bytes: the ETag, and the cache key in the frame's URL. */
  readonly version: string;
}

/** The repository: ../../../ from src/http/widget/ and from dist/http/widget/ alike. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** dist/widget/ when this module runs from dist/; from src/ it names src/widget/, which never exists. */
const BUILT_DIR = fileURLToPath(new URL('../../widget/', import.meta.url));

let cache: ReadonlyMap<WidgetAssetName, WidgetScript> | undefined;

function describe(bytes: Buffer): WidgetScript {
  return {
    bytes,
    integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}`,
    version: createHash('sha256').update(bytes).digest('hex').slice(0, 20),
  };
}

function loadAll(): ReadonlyMap<WidgetAssetName, WidgetScript> {
  const files = WIDGET_ASSETS.map((name) => `${BUILT_DIR}${name}.js`);
  const built = files.every((file) => existsSync(file))
    ? new Map(WIDGET_ASSETS.map((name, index) => [name, readFileSync(files[index]!)] as const))
    : buildWidgetBundles(ROOT);
  return new Map(WIDGET_ASSETS.map((name) => [name, describe(built.get(name) ?? Buffer.alloc(0))] as const));
}

export function loadWidgetAsset(name: WidgetAssetName): WidgetScript {
  cache ??= loadAll();
  return cache.get(name)!;
}

/** paymentWidgets.js: the same bytes for every checkout (the script reads its checkout id from its src). */
export function loadWidgetScript(): WidgetScript {
  return loadWidgetAsset('paymentWidgets');
}
