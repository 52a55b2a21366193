/**
 * `npm run build` (and `npm start`, which builds first): src/ transpiled to plain JavaScript in
 * dist/, file by file, with the files the code reads beside itself (migrations, the result-code
 * table) copied along. No type check here (`npm run typecheck` does that) and no bundling, so
 * dist/ has the tree of src/ and `import.meta.url` finds its neighbours as in src/.
 *
 * Why not run src/ with tsx as the tests do: tsx's loader keeps a thread and an esbuild service
 * per process (about 35 MiB resident), and compiles every function with esbuild's keepNames,
 * which wraps each closure the payment path creates in a naming helper (docs/performance.md).
 * Plain JavaScript is plain JavaScript.
 *
 * Plain JavaScript itself, so that it runs before anything is compiled.
 */
import { build } from 'esbuild';
import { cpSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

const files = readdirSync(SRC, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
const isSource = (name) => name.endsWith('.ts') || name.endsWith('.tsx');
const sources = files.filter((entry) => isSource(entry.name)).map((entry) => join(entry.parentPath ?? entry.path, entry.name));
const assets = files.filter((entry) => !isSource(entry.name)).map((entry) => join(entry.parentPath ?? entry.path, entry.name));

// Built aside and swapped in, so that a gateway already running from dist/ (a second `npm start`)
// never sees a half-written tree.
const next = `${DIST}.${process.pid}`;
const previous = `${DIST}.${process.pid}.old`;
// When this build read src/: a source changed after it makes dist/ stale (scripts/gateway-cli.mjs).
const startedAtMs = Date.now();
await build({
  entryPoints: sources,
  outdir: next,
  outbase: SRC,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The console's pages are Preact components rendered to strings on the server (docs/architecture.md).
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
for (const asset of assets) cpSync(asset, join(next, asset.slice(SRC.length)));
writeFileSync(join(next, 'build-stamp.json'), JSON.stringify({ startedAtMs }));
// The hosted payment widget's browser bundles (widget/ → dist/widget/), with the options the
// gateway would use to build them itself (src/http/widget/widget-build.ts, compiled just above).
const { widgetBuildOptions, buildWidgetTexts } = await import(pathToFileURL(join(next, 'http', 'widget', 'widget-build.js')).href);
await build({ ...widgetBuildOptions(ROOT), outdir: join(next, 'widget') });
// The texts of the widget's 25 languages, which GET /v1/widget/texts/{locale} serves (src/http/widget/texts-asset.ts).
writeFileSync(join(next, 'widget', 'texts.json'), JSON.stringify(buildWidgetTexts(ROOT)));
// The acquirer host emulator, which a test-system gateway without ACQUIRER_HOST_URL embeds
// (src/connectors/iso8583/embedded-host.ts): one bundle, since its sources live outside src/.
await build({
  entryPoints: [join(ROOT, 'emulators', 'acquirer-host', 'server.ts')],
  outfile: join(next, 'emulators', 'acquirer-host.js'),
  bundle: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
// Two builds at once (two copies of the test suite, a second `npm start`) race for dist/: the one
// whose tree is in the way moves it aside and tries again, so neither fails; both trees are the same.
const moved = [];
for (let attempt = 0; ; attempt += 1) {
  try {
    renameSync(next, DIST);
    break;
  } catch (error) {
    if (!['ENOTEMPTY', 'EEXIST'].includes(error.code) || attempt >= 50) throw error;
    const aside = `${previous}.${attempt}`;
    try {
      renameSync(DIST, aside);
      moved.push(aside);
    } catch (raced) {
      if (raced.code !== 'ENOENT') throw raced;
    }
  }
}
for (const aside of moved) rmSync(aside, { recursive: true, force: true });
