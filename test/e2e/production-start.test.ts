/**
 * The production start (docs/deployment.md): a release made of dist/ (what `npm run build` wrote),
 * package.json and the production dependencies, without src/ and without tsx or any other
 * devDependency, started by the `*:production` scripts with NODE_OPTIONS empty. A module that
 * still imported tsx, a .ts file or src/ at run time would fail to load here. The imports of dist/
 * are also read statically, so that a module loaded only on some path (a CLI group, Redis) is
 * covered too.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { ROOT } from '../../bench/support/node-process.js';
import { createBenchSchema } from '../../bench/support/postgres.js';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };
// A first start on PGlite creates its database: up to a minute on a busy 2-core machine.
const START_TIMEOUT_MS = 150_000;
const DEV_ONLY = new Set(Object.keys(PACKAGE.devDependencies));
const CARD = { paymentBrand: 'VISA', 'card.number': '4012888888881881', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' };

/** dist/, package.json, and node_modules holding links to every package but the devDependencies. */
function makeRelease(): string {
  const release = mkdtempSync(join(tmpdir(), 'gateway-release-'));
  cpSync(join(ROOT, 'dist'), join(release, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(release, 'package.json'));
  const modules = join(ROOT, 'node_modules');
  const link = (name: string) => {
    if (DEV_ONLY.has(name)) return;
    mkdirSync(dirname(join(release, 'node_modules', name)), { recursive: true });
    symlinkSync(join(modules, name), join(release, 'node_modules', name));
  };
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) for (const name of readdirSync(join(modules, entry))) link(`${entry}/${name}`);
    else link(entry);
  }
  return release;
}

function javascriptFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Every import of the given files, as esbuild resolves them (static and dynamic imports with a
 * string specifier): the files it reaches and the packages it leaves external.
 */
async function importsOf(release: string, files: readonly string[]): Promise<{ files: string[]; packages: string[] }> {
  const result = await build({ absWorkingDir: release, entryPoints: [...files], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', outdir: 'unused', logLevel: 'silent' });
  const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports);
  return {
    files: Object.keys(result.metafile.inputs),
    packages: [...new Set(imports.filter((i) => i.external).map((i) => i.path))],
  };
}

const packageNameOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

interface Started {
  readonly child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/** `npm run -s <script>` in the release, NODE_OPTIONS empty; resolves once `line` is printed. */
async function runScript(release: string, script: string, env: Record<string, string>, line: RegExp): Promise<Started> {
  const child = spawn('npm', ['run', '-s', script], { cwd: release, env: { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let text = '';
  const exited = once(child, 'exit') as Promise<[number | null]>;
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => {
      // npm and the node below it: one process group, not left behind by a failed start.
      process.kill(-child.pid!, 'SIGKILL');
      fail(new Error(`${script}: no ${line} within ${START_TIMEOUT_MS} ms\n${text}`));
    }, START_TIMEOUT_MS);
    const keep = (chunk: Buffer) => {
      text += chunk.toString();
      if (line.test(text)) { clearTimeout(timer); ready(); }
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    void exited.then(([code]) => { clearTimeout(timer); fail(new Error(`${script} exited (${code}):\n${text}`)); });
  });
  return {
    child,
    output: () => text,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      return (await exited)[0];
    },
  };
}

/** The node process npm ran (`exec node …` replaces the shell): its command line and NODE_OPTIONS. */
function nodeBelow(npm: number): { argv: string[]; nodeOptions: string | undefined } {
  const children = readFileSync(`/proc/${npm}/task/${npm}/children`, 'utf8').trim().split(/\s+/).map(Number);
  const pid = children.find((child) => readFileSync(`/proc/${child}/comm`, 'utf8').trim() === 'node')!;
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return { argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean), nodeOptions: environ.find((v) => v.startsWith('NODE_OPTIONS='))?.slice('NODE_OPTIONS='.length) };
}

describe('the production start: built JavaScript only, no TypeScript loader', () => {
  let release: string;
  let dataDir: string;
  before(() => {
    if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
    release = makeRelease();
    dataDir = mkdtempSync(join(tmpdir(), 'gateway-release-data-'));
  });
  after(() => {
    rmSync(release, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the production scripts run node on dist/ without building; tsx is a devDependency', () => {
    for (const script of ['start:production', 'worker:production', 'sftp:production', 'gateway:production']) {
      assert.match(PACKAGE.scripts[script]!, /^(exec )?node (--[\w-]+=\S+ )*dist\/[\w/-]+\.js$/, script);
    }
    assert.equal(PACKAGE.dependencies['tsx'], undefined);
    assert.equal(existsSync(join(release, 'node_modules', 'tsx')), false);
  });

  it('dist/ imports only files of dist/, built-in modules and production dependencies', async () => {
    const reached = await importsOf(release, javascriptFiles(join(release, 'dist')));
    assert.deepEqual(reached.files.filter((file) => !/^dist\/.*\.js(on)?$/.test(file)), []);
    const notProduction = reached.packages.filter((name) => !name.startsWith('node:') && !builtinModules.includes(name) && !(packageNameOf(name) in PACKAGE.dependencies));
    assert.deepEqual(notProduction, []);
  });

  it('start:production serves a payment, the compiled CLI and sftp:production work beside it, SIGTERM exits 0', { timeout: 240_000 }, async () => {
    const [port, sftpPort] = await Promise.all([freePort(), freePort()]);
    // PostgreSQL when the suite has it (a faster first start), else the embedded database.
    const schema = process.env['TEST_DATABASE_URL'] ? await createBenchSchema('release_start', process.env['TEST_DATABASE_URL']) : undefined;
    const env = { DATABASE_URL: schema?.url ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SFTP_PORT: String(sftpPort), SFTP_IN_GATEWAY: 'false', SHUTDOWN_DRAIN_MS: '0' };
    const gateway = await runScript(release, 'start:production', env, /"msg":"gateway ready"/).catch(async (error: unknown) => {
      await schema?.drop();
      throw error;
    });
    try {
      const node = nodeBelow(gateway.child.pid!);
      assert.deepEqual(node.argv.slice(1), ['--max-semi-space-size=32', 'dist/main.js']);
      assert.equal(node.nodeOptions ?? '', '');
      const merchant = { entityId: /entityId:\s+(\w+)/.exec(gateway.output())![1]!, accessToken: /accessToken:\s+(\S+)/.exec(gateway.output())![1]! };
      const response = await fetch(`http://127.0.0.1:${port}/v1/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ entityId: merchant.entityId, paymentType: 'DB', amount: '12.00', currency: 'EUR', ...CARD }),
      });
      const body = (await response.json()) as { result: { code: string } };
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(body.result.code, '000.100.110');

      // The compiled command line reaches the running gateway through DATA_DIR's runtime record.
      const cli = spawnSync('npm', ['run', '-s', 'gateway:production', '--', 'entity', 'create', '--name', 'Release shop'], { cwd: release, env: { ...process.env, ...env, NODE_OPTIONS: '' }, encoding: 'utf8' });
      assert.equal(cli.status, 0, cli.stderr + cli.stdout);
      assert.match((JSON.parse(cli.stdout) as { entityId?: string; id?: string }).entityId ?? '', /^\w{32}$/, cli.stdout);

      const sftp = await runScript(release, 'sftp:production', env, /"msg":"sftp server ready"/);
      assert.equal(await sftp.stop(), 0, sftp.output());
    } finally {
      const code = await gateway.stop();
      await schema?.drop();
      assert.equal(code, 0, gateway.output());
    }
  });

  it('worker:production runs the jobs on PostgreSQL and stops on SIGTERM', { skip: process.env['TEST_DATABASE_URL'] ? false : 'TEST_DATABASE_URL not set: the worker needs PostgreSQL', timeout: 60_000 }, async () => {
    const schema = await createBenchSchema('release_worker', process.env['TEST_DATABASE_URL']);
    try {
      const worker = await runScript(release, 'worker:production', { DATABASE_URL: schema.url, DATA_DIR: dataDir }, /"msg":"job worker started"/);
      assert.equal(await worker.stop(), 0, worker.output());
      assert.match(worker.output(), /"msg":"job worker stopped"/);
    } finally {
      await schema.drop();
    }
  });
});
