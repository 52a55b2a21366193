/**
 * `npm run gateway -- …`: the administration command line, run from the compiled dist/ like the
 * server (node dist/cli/main.js) instead of through tsx, which compiled every imported file on each
 * call (about 2 s per command, docs/operations.md).
 *
 * dist/ is rebuilt only when it is missing or older than src/: one walk over src/ comparing
 * modification times with the stamp the last build wrote (a few milliseconds), so the cost of a
 * build (several seconds) is paid once after a change, not on every call. Directories count too,
 * so a deleted or renamed file also makes dist/ stale.
 *
 * Plain JavaScript, so that it runs before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

function builtAtMs() {
  try {
    return JSON.parse(readFileSync(join(DIST, 'build-stamp.json'), 'utf8')).startedAtMs;
  } catch {
    return undefined;
  }
}

function newestChangeMs(folder) {
  let newest = statSync(folder).mtimeMs;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChangeMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const built = builtAtMs();
if (built === undefined || newestChangeMs(join(ROOT, 'src')) > built) {
  process.stderr.write('dist/ is missing or older than src/: building it first (npm run build)\n');
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(join(DIST, 'cli', 'main.js')).href);
