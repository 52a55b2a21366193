/**
 * A start on a port another program holds fails at once with one plain line on stderr and exit
 * code 1, before it opens or migrates the database or writes anything into DATA_DIR.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCommand } from '../../bench/support/gateway.js';
import { ROOT } from '../../bench/support/node-process.js';

async function start(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const command = startCommand();
  const child = spawn(process.execPath, [...command.nodeFlags, command.script], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe('a start on a port that is taken', () => {
  let holder: Server;
  let port: number;
  let parent: string;
  before(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as AddressInfo).port;
    parent = mkdtempSync(join(tmpdir(), 'gateway-port-taken-'));
  });
  after(async () => {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    rmSync(parent, { recursive: true, force: true });
  });

  it('on the embedded database: one line, exit 1, DATA_DIR never created', async () => {
    const dataDir = join(parent, 'data');
    const result = await start({ HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '' });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(result.stderr, `cannot listen on 127.0.0.1:${port}: address already in use (set PORT)\n`);
    assert.equal(result.stdout, '', 'no log line, no demo merchant');
    assert.equal(existsSync(dataDir), false, 'nothing written into DATA_DIR');
  });

  it('with GATEWAY_PROCESSES=2: the primary says so before it reaches for the database', async () => {
    // A database nobody listens on: a start that opened it first would fail on it instead.
    const result = await start({ HOST: '127.0.0.1', PORT: String(port), DATA_DIR: join(parent, 'cluster'), GATEWAY_PROCESSES: '2', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(result.stderr, `cannot listen on 127.0.0.1:${port}: address already in use (set PORT)\n`);
    assert.equal(result.stdout, '');
  });
});
