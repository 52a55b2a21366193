/**
 * `npm start` and `npm run worker` as an operator (or a supervisor) runs them: a SIGTERM or
 * SIGINT to npm must stop the node process it started, not leave it running on the port and
 * the data folder. npm hands the signal to its child; when that child is a shell running node,
 * node never hears it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { listeningPort, ROOT } from '../../bench/support/node-process.js';
import { createBenchSchema } from '../../bench/support/postgres.js';
import { portProblem } from '../../src/http/port-check.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return false;
  }
};

function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** The node process below npm that runs `script` (npm may run it through a shell). */
function processRunning(npm: number, script: string): number | undefined {
  return descendants(npm).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(script);
    } catch {
      return false;
    }
  });
}

async function until<T>(probe: () => T | undefined, what: string, output: () => string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached in time:\n${output()}`);
    await sleep(100);
  }
}

function npm(args: string[], env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn('npm', args, { cwd: ROOT, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

/** Kills whatever the test left behind, so a failing run does not leave a gateway running. */
function killTree(npmPid: number, known: readonly number[]): void {
  for (const pid of [...descendants(npmPid), ...known, npmPid]) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
}

describe('stopping npm stops the process npm started', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`npm start, then ${signal} to npm: the gateway is gone and its port is free`, { timeout: 120_000 }, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'gateway-npm-start-'));
      const run = npm(['start'], { DATA_DIR: dataDir, DATABASE_URL: '', GATEWAY_PROCESSES: '1' });
      const started: number[] = [];
      try {
        const gateway = await until(() => processRunning(run.child.pid!, 'dist/main.js'), 'the gateway process', run.output);
        started.push(gateway);
        await until(() => /"msg":"gateway ready"/.test(run.output()) || undefined, 'gateway ready', run.output);
        const port = await until(() => listeningPort(gateway), 'the gateway port', run.output);
        const exited = once(run.child, 'exit');
        run.child.kill(signal);
        await exited;
        await until(() => !alive(gateway) || undefined, `the gateway (pid ${gateway}) stopped after ${signal} to npm`, run.output, 20_000);
        assert.equal(await portProblem('127.0.0.1', port), undefined, `port ${port} is free again`);
        assert.match(run.output(), new RegExp(`"signal":"${signal}","msg":"stopping"`), 'the gateway stopped cleanly, on the signal');
      } finally {
        killTree(run.child.pid!, started);
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  const url = process.env['TEST_DATABASE_URL'];
  it('npm run worker, then SIGTERM to npm: the worker is gone', { timeout: 120_000, skip: url ? false : 'TEST_DATABASE_URL not set: the worker needs PostgreSQL' }, async () => {
    const schema = await createBenchSchema('npm_worker', url!);
    const run = npm(['run', 'worker'], { DATABASE_URL: schema.url });
    const started: number[] = [];
    try {
      const worker = await until(() => processRunning(run.child.pid!, 'dist/worker.js'), 'the worker process', run.output);
      started.push(worker);
      // Its migrations done, the worker is up and has its signal handlers.
      for (let tables = 0; tables === 0; await sleep(200)) {
        tables = Number((await schema.admin.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = $1`, [schema.name])).rows[0].n);
      }
      await sleep(1_000);
      const exited = once(run.child, 'exit');
      run.child.kill('SIGTERM');
      await exited;
      await until(() => !alive(worker) || undefined, `the worker (pid ${worker}) stopped after SIGTERM to npm`, run.output, 20_000);
    } finally {
      killTree(run.child.pid!, started);
      await schema.drop();
    }
  });
});
