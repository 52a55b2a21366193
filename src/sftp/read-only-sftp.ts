import type { Stats } from 'node:fs';
import { open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import { join, posix, sep } from 'node:path';
import ssh2 from 'ssh2';
import type { SFTPWrapper } from 'ssh2';
import { budgetOf, DEFAULT_SFTP_LIMITS, MAX_PENDING_REQUESTS_PER_SESSION, MAX_QUEUED_ANSWERS_PER_SESSION, MAX_READ_BYTES, type Budget } from './sftp-limits.js';

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;


type Handle = { readonly kind: 'file'; readonly file: FileHandle } | { readonly kind: 'dir'; readonly entries: string[]; sent: boolean };

function attrsOf(s: Stats) {
  return { mode: s.mode, uid: 0, gid: 0, size: s.size, atime: Math.floor(s.atimeMs / 1000), mtime: Math.floor(s.mtimeMs / 1000) };
}

/** The client's path as a path inside the merchant's folder: "/" is the folder, ".." never leaves it. */
export function virtualPath(requested: string): string {
  return posix.normalize(`/${requested}`).replace(/\/+$/, '') || '/';
}

/** What one session may hold (src/sftp/sftp-limits.ts). */
export interface SessionLimits {
  readonly maxHandles: number;
  /** The server's open files, shared by all its sessions. */
  readonly openFiles: Budget;
  /** Called on every request: the server's idle clock starts again. */
  readonly onRequest?: () => void;
}

const STANDALONE_LIMITS: SessionLimits = { maxHandles: DEFAULT_SFTP_LIMITS.maxHandlesPerSession, openFiles: budgetOf(DEFAULT_SFTP_LIMITS.maxOpenFiles) };

/**
 * Answers ssh2 holds back until the client opens its window. ssh2 keeps them in an unbounded
 * array and exposes no count, so it is read here; a client that asks without reading is refused.
 */
function queuedAnswers(sftp: SFTPWrapper): number {
  return (sftp as unknown as { _buffer?: unknown[] })._buffer?.length ?? 0;
}

/**
 * The session's handles, bounded: a slot is reserved before the file system is asked (pipelined
 * OPENs cannot all pass the check), every open file holds one unit of the server's budget, and a
 * file opened after the session ended is closed at once.
 */
function handleTable(limits: SessionLimits) {
  const handles = new Map<number, Handle>();
  let nextHandle = 1;
  let reserved = 0;
  let ended = false;
  const closeFile = (handle: Handle) => {
    if (handle.kind !== 'file') return Promise.resolve();
    limits.openFiles.give();
    return handle.file.close().catch(() => undefined);
  };
  return {
    of: (buffer: Buffer) => (buffer.length === 4 ? handles.get(buffer.readUInt32BE(0)) : undefined),
    /** A slot for one more handle, or false when the session holds its most. */
    reserve(): boolean {
      if (ended || handles.size + reserved >= limits.maxHandles) return false;
      reserved += 1;
      return true;
    },
    unreserve: () => void (reserved -= 1),
    /** Fills a reserved slot; undefined when the session ended meanwhile (the handle is closed). */
    add(handle: Handle): Buffer | undefined {
      reserved -= 1;
      if (ended) return void closeFile(handle);
      const id = nextHandle++;
      handles.set(id, handle);
      const buffer = Buffer.alloc(4);
      buffer.writeUInt32BE(id, 0);
      return buffer;
    },
    remove(buffer: Buffer): Handle | undefined {
      const handle = this.of(buffer);
      if (handle) handles.delete(buffer.readUInt32BE(0));
      return handle;
    },
    closeFile,
    closeAll(): void {
      ended = true;
      for (const handle of handles.values()) void closeFile(handle);
      handles.clear();
    },
  };
}

/**
 * Serves one merchant's folder read-only over an SFTP session: list, stat, open for reading,
 * read, close. Every path is resolved under the folder and checked again after symbolic links
 * are followed; writes, renames and removals are refused. A request over the session's limits
 * is answered SSH_FX_FAILURE; the session goes on.
 */
export function serveReadOnly(sftp: SFTPWrapper, root: string, limits: SessionLimits = STANDALONE_LIMITS): void {
  const handles = handleTable(limits);
  let pending = 0;
  const inside = async (requested: string): Promise<string | undefined> => {
    try {
      const real = await realpath(join(root, virtualPath(requested)));
      const realRoot = await realpath(root);
      return real === realRoot || real.startsWith(realRoot + sep) ? real : undefined;
    } catch {
      return undefined;
    }
  };
  const fail = (reqid: number, code: number = STATUS_CODE.NO_SUCH_FILE) => sftp.status(reqid, code);
  /** Each request that waits on the file system: counted, bounded, and never left unanswered. */
  const serve = (reqid: number, work: () => Promise<unknown>) => {
    limits.onRequest?.();
    if (pending >= MAX_PENDING_REQUESTS_PER_SESSION) return fail(reqid, STATUS_CODE.FAILURE);
    pending += 1;
    void work().catch(() => fail(reqid, STATUS_CODE.FAILURE)).finally(() => (pending -= 1));
  };

  sftp.on('REALPATH', (reqid, path) => {
    limits.onRequest?.();
    const shown = virtualPath(path);
    sftp.name(reqid, [{ filename: shown, longname: shown, attrs: {} as never }]);
  });
  const onStat = async (reqid: number, path: string) => {
    const real = await inside(path);
    if (!real) return fail(reqid);
    sftp.attrs(reqid, attrsOf(await stat(real)));
  };
  sftp.on('STAT', (reqid, path) => serve(reqid, () => onStat(reqid, path)));
  sftp.on('LSTAT', (reqid, path) => serve(reqid, () => onStat(reqid, path)));
  sftp.on('OPENDIR', (reqid, path) => serve(reqid, async () => {
    if (!handles.reserve()) return fail(reqid, STATUS_CODE.FAILURE);
    try {
      const real = await inside(path);
      if (!real || !(await stat(real)).isDirectory()) return fail(reqid);
      const entries = (await readdir(real)).filter((n) => !n.endsWith('.partial')).sort();
      const handle = handles.add({ kind: 'dir', entries, sent: false });
      return handle ? sftp.handle(reqid, handle) : fail(reqid, STATUS_CODE.FAILURE);
    } catch (error) {
      handles.unreserve();
      throw error;
    }
  }));
  sftp.on('READDIR', (reqid, buffer) => serve(reqid, async () => {
    const handle = handles.of(buffer);
    if (!handle || handle.kind !== 'dir') return fail(reqid, STATUS_CODE.FAILURE);
    if (handle.sent) return fail(reqid, STATUS_CODE.EOF);
    handle.sent = true;
    const names = [];
    for (const name of handle.entries) names.push({ filename: name, longname: `-r--r--r-- 1 sftp sftp ${name}`, attrs: {} as never });
    sftp.name(reqid, names);
  }));
  sftp.on('OPEN', (reqid, path, flags) => serve(reqid, () => onOpen(reqid, path, flags)));
  const onOpen = async (reqid: number, path: string, flags: number) => {
    // Read only: any of write, append, create or truncate is refused.
    if (flags !== OPEN_MODE.READ) return fail(reqid, STATUS_CODE.PERMISSION_DENIED);
    if (!handles.reserve()) return fail(reqid, STATUS_CODE.FAILURE);
    if (!limits.openFiles.take()) {
      handles.unreserve();
      return fail(reqid, STATUS_CODE.FAILURE);
    }
    let file: FileHandle;
    try {
      const real = await inside(path);
      if (!real || !(await stat(real)).isFile()) throw Object.assign(new Error('no such file'), { missing: true });
      file = await open(real, 'r');
    } catch (error) {
      handles.unreserve();
      limits.openFiles.give();
      return fail(reqid, (error as { missing?: boolean }).missing ? STATUS_CODE.NO_SUCH_FILE : STATUS_CODE.FAILURE);
    }
    const handle = handles.add({ kind: 'file', file });
    return handle ? sftp.handle(reqid, handle) : fail(reqid, STATUS_CODE.FAILURE);
  };
  sftp.on('READ', (reqid, buffer, offset, length) => serve(reqid, async () => {
    const handle = handles.of(buffer);
    if (!handle || handle.kind !== 'file') return fail(reqid, STATUS_CODE.FAILURE);
    if (queuedAnswers(sftp) >= MAX_QUEUED_ANSWERS_PER_SESSION) return fail(reqid, STATUS_CODE.FAILURE);
    const chunk = Buffer.alloc(Math.min(length, MAX_READ_BYTES));
    const { bytesRead } = await handle.file.read(chunk, 0, chunk.length, offset);
    if (bytesRead === 0) return fail(reqid, STATUS_CODE.EOF);
    sftp.data(reqid, chunk.subarray(0, bytesRead));
  }));
  sftp.on('FSTAT', (reqid, buffer) => serve(reqid, async () => {
    const handle = handles.of(buffer);
    if (!handle || handle.kind !== 'file') return fail(reqid, STATUS_CODE.FAILURE);
    sftp.attrs(reqid, attrsOf(await handle.file.stat()));
  }));
  sftp.on('CLOSE', (reqid, buffer) => serve(reqid, async () => {
    const handle = handles.remove(buffer);
    if (!handle) return fail(reqid, STATUS_CODE.FAILURE);
    await handles.closeFile(handle);
    sftp.status(reqid, STATUS_CODE.OK);
  }));
  for (const event of ['WRITE', 'FSETSTAT', 'SETSTAT', 'REMOVE', 'RMDIR', 'MKDIR', 'RENAME', 'SYMLINK', 'READLINK'] as const) {
    sftp.on(event as 'REMOVE', (reqid: number) => {
      limits.onRequest?.();
      fail(reqid, STATUS_CODE.PERMISSION_DENIED);
    });
  }
  // The client's end of the channel: close ours too, or OpenSSH's sftp waits for it forever.
  sftp.on('end', () => {
    handles.closeAll();
    sftp.end();
  });
  // A connection that drops (or is closed for idling) ends no channel: its files are closed here.
  sftp.on('close', () => handles.closeAll());
}
