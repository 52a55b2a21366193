import type { Stats } from 'node:fs';
import { open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import { join, posix, sep } from 'node:path';
import ssh2 from 'ssh2';
import type { SFTPWrapper } from 'ssh2';

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;

/** Bytes one READ answers at most (the client asks for its own size; OpenSSH asks 32 KiB or more). */
const MAX_READ_BYTES = 256 * 1024;

type Handle = { readonly kind: 'file'; readonly file: FileHandle } | { readonly kind: 'dir'; readonly entries: string[]; sent: boolean };

function attrsOf(s: Stats) {
  return { mode: s.mode, uid: 0, gid: 0, size: s.size, atime: Math.floor(s.atimeMs / 1000), mtime: Math.floor(s.mtimeMs / 1000) };
}

/** The client's path as a path inside the merchant's folder: "/" is the folder, ".." never leaves it. */
export function virtualPath(requested: string): string {
  return posix.normalize(`/${requested}`).replace(/\/+$/, '') || '/';
}

/**
 * Serves one merchant's folder read-only over an SFTP session: list, stat, open for reading,
 * read, close. Every path is resolved under the folder and checked again after symbolic links
 * are followed; writes, renames and removals are refused.
 */
export function serveReadOnly(sftp: SFTPWrapper, root: string): void {
  const handles = new Map<number, Handle>();
  let nextHandle = 1;
  const handleOf = (buffer: Buffer) => (buffer.length === 4 ? handles.get(buffer.readUInt32BE(0)) : undefined);
  const newHandle = (handle: Handle) => {
    const id = nextHandle++;
    handles.set(id, handle);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(id, 0);
    return buffer;
  };
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

  sftp.on('REALPATH', (reqid, path) => {
    const shown = virtualPath(path);
    sftp.name(reqid, [{ filename: shown, longname: shown, attrs: {} as never }]);
  });
  const onStat = async (reqid: number, path: string) => {
    const real = await inside(path);
    if (!real) return fail(reqid);
    sftp.attrs(reqid, attrsOf(await stat(real)));
  };
  sftp.on('STAT', (reqid, path) => void onStat(reqid, path).catch(() => fail(reqid, STATUS_CODE.FAILURE)));
  sftp.on('LSTAT', (reqid, path) => void onStat(reqid, path).catch(() => fail(reqid, STATUS_CODE.FAILURE)));
  sftp.on('OPENDIR', (reqid, path) => void (async () => {
    const real = await inside(path);
    if (!real || !(await stat(real)).isDirectory()) return fail(reqid);
    sftp.handle(reqid, newHandle({ kind: 'dir', entries: (await readdir(real)).filter((n) => !n.endsWith('.partial')).sort(), sent: false }));
  })().catch(() => fail(reqid, STATUS_CODE.FAILURE)));
  sftp.on('READDIR', (reqid, buffer) => void (async () => {
    const handle = handleOf(buffer);
    if (!handle || handle.kind !== 'dir') return fail(reqid, STATUS_CODE.FAILURE);
    if (handle.sent) return fail(reqid, STATUS_CODE.EOF);
    handle.sent = true;
    const names = [];
    for (const name of handle.entries) names.push({ filename: name, longname: `-r--r--r-- 1 sftp sftp ${name}`, attrs: {} as never });
    sftp.name(reqid, names);
  })().catch(() => fail(reqid, STATUS_CODE.FAILURE)));
  sftp.on('OPEN', (reqid, path, flags) => void (async () => {
    // Read only: any of write, append, create or truncate is refused.
    if (flags !== OPEN_MODE.READ) return fail(reqid, STATUS_CODE.PERMISSION_DENIED);
    const real = await inside(path);
    if (!real || !(await stat(real)).isFile()) return fail(reqid);
    sftp.handle(reqid, newHandle({ kind: 'file', file: await open(real, 'r') }));
  })().catch(() => fail(reqid, STATUS_CODE.FAILURE)));
  sftp.on('READ', (reqid, buffer, offset, length) => void (async () => {
    const handle = handleOf(buffer);
    if (!handle || handle.kind !== 'file') return fail(reqid, STATUS_CODE.FAILURE);
    const chunk = Buffer.alloc(Math.min(length, MAX_READ_BYTES));
    const { bytesRead } = await handle.file.read(chunk, 0, chunk.length, offset);
    if (bytesRead === 0) return fail(reqid, STATUS_CODE.EOF);
    sftp.data(reqid, chunk.subarray(0, bytesRead));
  })().catch(() => fail(reqid, STATUS_CODE.FAILURE)));
  sftp.on('FSTAT', (reqid, buffer) => void (async () => {
    const handle = handleOf(buffer);
    if (!handle || handle.kind !== 'file') return fail(reqid, STATUS_CODE.FAILURE);
    sftp.attrs(reqid, attrsOf(await handle.file.stat()));
  })().catch(() => fail(reqid, STATUS_CODE.FAILURE)));
  sftp.on('CLOSE', (reqid, buffer) => void (async () => {
    const handle = handleOf(buffer);
    if (!handle) return fail(reqid, STATUS_CODE.FAILURE);
    handles.delete(buffer.readUInt32BE(0));
    if (handle.kind === 'file') await handle.file.close();
    sftp.status(reqid, STATUS_CODE.OK);
  })().catch(() => fail(reqid, STATUS_CODE.FAILURE)));
  for (const event of ['WRITE', 'FSETSTAT', 'SETSTAT', 'REMOVE', 'RMDIR', 'MKDIR', 'RENAME', 'SYMLINK', 'READLINK'] as const) {
    sftp.on(event as 'REMOVE', (reqid: number) => fail(reqid, STATUS_CODE.PERMISSION_DENIED));
  }
  // The client's end of the channel: close ours too, or OpenSSH's sftp waits for it forever.
  sftp.on('end', () => {
    for (const handle of handles.values()) if (handle.kind === 'file') void handle.file.close();
    handles.clear();
    sftp.end();
  });
}
