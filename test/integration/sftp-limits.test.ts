/**
 * The built-in SFTP server's limits (issue 29, item 8): a session's handles, a merchant's
 * sessions, the logins in progress and the server's open files are bounded, and a refused OPEN
 * is answered with SSH_FX_FAILURE while the session goes on. No database: the key store is a map.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ssh2 from 'ssh2';
import { DEFAULT_SFTP_LIMITS, type SftpLimits } from '../../src/sftp/sftp-limits.js';
import { readableEd25519KeyPair } from '../../src/sftp/ed25519-key.js';
import { startSftpServer, type RunningSftpServer } from '../../src/sftp/sftp-server.js';
import { closeHandle, connectSftp, merchantKeyPair, openForReading, type SftpSession } from '../support/sftp-client.js';

const { STATUS_CODE } = ssh2.utils.sftp;
const LIMITS: SftpLimits = { ...DEFAULT_SFTP_LIMITS, maxHandlesPerSession: 4, maxSessionsPerMerchant: 2, maxPendingAuth: 3, maxOpenFiles: 6, authTimeoutMs: 60_000 };

describe('the SFTP server\'s limits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sftp-limits-'));
  const merchant = '0123456789abcdef'.repeat(2);
  const second = 'f'.repeat(32);
  const keys = merchantKeyPair();
  let server: RunningSftpServer;
  const sessions: SftpSession[] = [];
  /** Ends every session of the earlier steps and waits until the server has let them go. */
  const logOutAll = async () => {
    sessions.splice(0).forEach((s) => s.close());
    await waitFor(() => server.load().sessions === 0 && server.load().openFiles === 0, 'every session ended');
  };
  const login = async (who = merchant) => {
    const session = await connectSftp(server.port, who, keys.privateKey);
    sessions.push(session);
    return session;
  };
  before(async () => {
    for (const who of [merchant, second]) {
      mkdirSync(join(dir, who), { recursive: true });
      writeFileSync(join(dir, who, 'reconciliation-2026-11-23.csv'), 'ReconciliationType;PaymentType\n');
    }
    const hostKey = readableEd25519KeyPair().private;
    server = await startSftpServer({ host: '127.0.0.1', port: 0, hostKey, filesDir: dir, limits: LIMITS, keys: { publicKeysOf: async () => [keys.publicKey] } });
  });
  after(async () => {
    for (const session of sessions) session.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the OPEN past the session\'s handles with SSH_FX_FAILURE, and a CLOSE frees a slot', async () => {
    const { sftp } = await login();
    const handles: Buffer[] = [];
    for (let i = 0; i < LIMITS.maxHandlesPerSession; i += 1) {
      const opened = await openForReading(sftp, 'reconciliation-2026-11-23.csv');
      assert.ok('handle' in opened, `open ${i + 1}: ${JSON.stringify(opened)}`);
      handles.push(opened.handle);
    }
    assert.deepEqual(await openForReading(sftp, 'reconciliation-2026-11-23.csv'), { status: STATUS_CODE.FAILURE });
    // Pipelined past the limit at once: every one is refused, none slips through before the others.
    const burst = await Promise.all(Array.from({ length: 50 }, () => openForReading(sftp, 'reconciliation-2026-11-23.csv')));
    assert.deepEqual(new Set(burst.map((b) => JSON.stringify(b))), new Set([JSON.stringify({ status: STATUS_CODE.FAILURE })]));
    await closeHandle(sftp, handles.pop()!);
    const again = await openForReading(sftp, 'reconciliation-2026-11-23.csv');
    assert.ok('handle' in again, 'the closed handle\'s slot is free again');
    handles.push(again.handle);
    for (const handle of handles) await closeHandle(sftp, handle);
    assert.equal(server.load().openFiles, 0);
  });

  it('bounds the open files of all sessions together, and gives them back when a session drops', async () => {
    const first = await login(merchant);
    const other = await login(second);
    for (let i = 0; i < LIMITS.maxHandlesPerSession; i += 1) assert.ok('handle' in (await openForReading(first.sftp, 'reconciliation-2026-11-23.csv')));
    const left = LIMITS.maxOpenFiles - LIMITS.maxHandlesPerSession;
    for (let i = 0; i < left; i += 1) assert.ok('handle' in (await openForReading(other.sftp, 'reconciliation-2026-11-23.csv')));
    assert.deepEqual(await openForReading(other.sftp, 'reconciliation-2026-11-23.csv'), { status: STATUS_CODE.FAILURE }, 'the server holds its most files');
    first.close();
    await waitFor(() => server.load().openFiles === left, 'the dropped session\'s files are closed');
    assert.ok('handle' in (await openForReading(other.sftp, 'reconciliation-2026-11-23.csv')));
    other.close();
    await waitFor(() => server.load().openFiles === 0, 'every file closed');
  });

  it('refuses a merchant\'s session past its limit and takes it again once one ends', async () => {
    await logOutAll();
    const held = [];
    for (let i = 0; i < LIMITS.maxSessionsPerMerchant; i += 1) held.push(await login());
    await assert.rejects(connectSftp(server.port, merchant, keys.privateKey), /authentication/i);
    assert.ok(await login(second), 'another merchant still logs in');
    held[0]!.close();
    await waitFor(() => server.load().sessions === LIMITS.maxSessionsPerMerchant, 'the first session ended');
    assert.ok(await login(), 'a session again once one ended');
  });

  it('closes connections past the logins in progress', async () => {
    await logOutAll();
    const silent = await Promise.all(Array.from({ length: LIMITS.maxPendingAuth }, () => rawConnection(server.port)));
    const extra = await rawConnection(server.port);
    await extra.closed;
    for (const s of silent) assert.equal(s.isClosed(), false, 'the first ones are still waiting');
    for (const s of silent) s.end();
    await Promise.all(silent.map((s) => s.closed));
    await waitFor(() => server.load().pendingAuth === 0, 'the silent ones left');
    assert.ok(await login(), 'a login once the silent ones left');
  });
});

describe('the SFTP server\'s timeouts', { timeout: 20_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'sftp-timeouts-'));
  const merchant = 'abcdef0123456789'.repeat(2);
  const keys = merchantKeyPair();
  let server: RunningSftpServer;
  before(async () => {
    mkdirSync(join(dir, merchant), { recursive: true });
    writeFileSync(join(dir, merchant, 'reconciliation-2026-11-23.csv'), 'ReconciliationType;PaymentType\n');
    const hostKey = readableEd25519KeyPair().private;
    const limits = { ...DEFAULT_SFTP_LIMITS, authTimeoutMs: 1_500, idleTimeoutMs: 3_000 };
    server = await startSftpServer({ host: '127.0.0.1', port: 0, hostKey, filesDir: dir, limits, keys: { publicKeysOf: async () => [keys.publicKey] } });
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('closes a connection that does not log in, and a session that stops asking, with its files', async () => {
    const silent = await rawConnection(server.port);
    const session = await connectSftp(server.port, merchant, keys.privateKey);
    const ended = new Promise<void>((resolve) => session.ssh.once('close', () => resolve()));
    assert.ok('handle' in (await openForReading(session.sftp, 'reconciliation-2026-11-23.csv')));
    assert.equal(server.load().openFiles, 1);
    await Promise.all([silent.closed, ended]);
    await waitFor(() => server.load().openFiles === 0 && server.load().sessions === 0 && server.load().pendingAuth === 0, 'everything given back');
  });

  it('keeps a session that goes on asking', async () => {
    const session = await connectSftp(server.port, merchant, keys.privateKey);
    let closed = false;
    session.ssh.once('close', () => (closed = true));
    for (let i = 0; i < 12; i += 1) {
      await new Promise((r) => setTimeout(r, 500));
      const opened = await openForReading(session.sftp, 'reconciliation-2026-11-23.csv');
      assert.ok('handle' in opened);
      await closeHandle(session.sftp, opened.handle);
    }
    assert.equal(closed, false, 'requests every 500 ms keep a 3 s idle timeout away');
    session.close();
  });
});

function rawConnection(port: number): Promise<{ closed: Promise<void>; isClosed(): boolean; end(): void }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let closed = false;
    const done = new Promise<void>((r) => socket.once('close', () => ((closed = true), r())));
    socket.on('error', () => undefined);
    socket.resume(); // reads the server's greeting: a paused socket never sees the server's close
    socket.once('connect', () => resolve({ closed: done, isClosed: () => closed, end: () => socket.destroy() }));
    socket.once('error', reject);
  });
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
