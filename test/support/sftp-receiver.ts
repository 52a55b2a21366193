import ssh2 from 'ssh2';
import { readableEd25519KeyPair } from '../../src/sftp/ed25519-key.js';

const { Server, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;

export interface SftpReceiver {
  readonly port: number;
  /** Files written, by remote path. */
  readonly files: Map<string, Buffer>;
  close(): Promise<void>;
}

const DIRECTORY_MODE = 0o040755;

/** A merchant's SFTP server as tests need it: one user and password, files kept in memory (or a stalled one). */
export async function startSftpReceiver(user: string, password: string, options: { readonly stallWrites?: boolean } = {}): Promise<SftpReceiver> {
  const files = new Map<string, Buffer>();
  const server = new Server({ hostKeys: [readableEd25519KeyPair().private] }, (client) => {
    client.on('authentication', (ctx) => (ctx.method === 'password' && ctx.username === user && ctx.password === password ? ctx.accept() : ctx.reject(['password'])));
    client.on('ready', () => client.on('session', (acceptSession) => acceptSession().on('sftp', (acceptSftp) => {
      const sftp = acceptSftp();
      const open = new Map<number, { path: string; chunks: Buffer[] }>();
      let next = 1;
      const handle = (id: number) => Buffer.from([0, 0, 0, id]);
      sftp.on('REALPATH', (reqid, path) => sftp.name(reqid, [{ filename: path.startsWith('/') ? path : `/${path}`, longname: path, attrs: {} as never }]));
      const stat = (reqid: number, path: string) => {
        const file = files.get(path);
        if (path === '/' || path === '/inbox') return sftp.attrs(reqid, { mode: DIRECTORY_MODE, size: 0, uid: 0, gid: 0, atime: 0, mtime: 0 });
        if (file) return sftp.attrs(reqid, { mode: 0o100644, size: file.length, uid: 0, gid: 0, atime: 0, mtime: 0 });
        return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
      };
      sftp.on('STAT', stat);
      sftp.on('LSTAT', stat);
      sftp.on('OPEN', (reqid, path) => {
        const id = next++;
        open.set(id, { path, chunks: [] });
        sftp.handle(reqid, handle(id));
      });
      sftp.on('WRITE', (reqid, h, _offset, data) => {
        // A server that stops answering in the middle of a transfer.
        if (options.stallWrites) return;
        open.get(h[3]!)?.chunks.push(Buffer.from(data));
        sftp.status(reqid, STATUS_CODE.OK);
      });
      sftp.on('FSTAT', (reqid) => sftp.attrs(reqid, { mode: 0o100644, size: 0, uid: 0, gid: 0, atime: 0, mtime: 0 }));
      sftp.on('FSETSTAT', (reqid) => sftp.status(reqid, STATUS_CODE.OK));
      sftp.on('SETSTAT', (reqid) => sftp.status(reqid, STATUS_CODE.OK));
      sftp.on('CLOSE', (reqid, h) => {
        const file = open.get(h[3]!);
        if (file) files.set(file.path, Buffer.concat(file.chunks));
        open.delete(h[3]!);
        sftp.status(reqid, STATUS_CODE.OK);
      });
      sftp.on('end', () => sftp.end());
    })));
    client.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.address() as { port: number }).port, files, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
