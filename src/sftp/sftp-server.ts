import { timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import ssh2 from 'ssh2';
import type { AuthContext, Connection, ParsedKey } from 'ssh2';
import { ENTITY_ID_PATTERN } from '../domain/ids.js';
import { merchantFolder } from '../operations/settlement/write-reconciliation-file.js';
import { serveReadOnly } from './read-only-sftp.js';

const { Server, utils } = ssh2;

/** Who may log in: a merchant entity id as user name, one of its registered OpenSSH public keys. */
export interface SftpKeyStore {
  publicKeysOf(merchantId: string): Promise<readonly string[]>;
}

export interface SftpServerOptions {
  readonly host: string;
  readonly port: number;
  /** PEM or OpenSSH private key of the server. */
  readonly hostKey: string | Buffer;
  readonly filesDir: string;
  readonly keys: SftpKeyStore;
  readonly logger?: { warn(fields: object, message: string): void } | undefined;
}

export interface RunningSftpServer {
  readonly port: number;
  close(): Promise<void>;
}

function parsed(text: string): ParsedKey | undefined {
  const key = utils.parseKey(text);
  return key instanceof Error ? undefined : Array.isArray(key) ? key[0] : key;
}

/** Does the offered key equal one of the merchant's, and (when signed) did its holder sign? */
function keyAccepted(ctx: AuthContext & { method: 'publickey' }, keys: readonly string[]): boolean {
  for (const text of keys) {
    const key = parsed(text);
    if (!key || key.type !== ctx.key.algo) continue;
    const known = key.getPublicSSH();
    if (known.length !== ctx.key.data.length || !timingSafeEqual(known, ctx.key.data)) continue;
    return !ctx.signature || key.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true;
  }
  return false;
}

function onClient(client: Connection, options: SftpServerOptions): void {
  let merchantId: string | undefined;
  client.on('authentication', (ctx) => {
    if (ctx.method !== 'publickey' || !ENTITY_ID_PATTERN.test(ctx.username)) return ctx.reject(['publickey']);
    options.keys.publicKeysOf(ctx.username).then(
      (keys) => {
        if (!keyAccepted(ctx, keys)) return ctx.reject(['publickey']);
        if (ctx.signature) merchantId = ctx.username;
        ctx.accept();
      },
      () => ctx.reject(['publickey']),
    );
  });
  client.on('ready', () => {
    client.on('session', (acceptSession) => {
      const session = acceptSession();
      session.on('sftp', (acceptSftp) => {
        // Accepted and served at once (synchronously): the client's first packet follows the
        // acceptance immediately and would be lost. A merchant without files yet sees an empty folder.
        const folder = merchantFolder(options.filesDir, merchantId!);
        mkdirSync(folder, { recursive: true });
        serveReadOnly(acceptSftp(), folder);
      });
    });
  });
  client.on('error', (error) => options.logger?.warn({ err: { type: error.name } }, 'sftp client error'));
}

/** The built-in SFTP server: each merchant sees its own folder of reconciliation files, read-only. */
export async function startSftpServer(options: SftpServerOptions): Promise<RunningSftpServer> {
  const server = new Server({ hostKeys: [options.hostKey] }, (client) => onClient(client, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as { port: number };
  return {
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The host key from its file, made (ed25519, owner-only) when there is none yet. */
export async function loadOrCreateHostKey(file: string): Promise<string> {
  if (existsSync(file)) return readFile(file, 'utf8');
  const { private: key } = utils.generateKeyPairSync('ed25519');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, key, { mode: 0o600 });
  return key;
}

/** The SFTP server SFTP_PORT asks for, over the stored keys; undefined when not configured. */
export async function startConfiguredSftp(
  settings: { readonly filesDir: string; readonly sftp: { readonly port: number; readonly host: string; readonly hostKeyFile: string } | undefined },
  keys: SftpKeyStore,
  logger: SftpServerOptions['logger'],
): Promise<RunningSftpServer | undefined> {
  if (!settings.sftp) return undefined;
  const hostKey = await loadOrCreateHostKey(settings.sftp.hostKeyFile);
  return startSftpServer({ host: settings.sftp.host, port: settings.sftp.port, hostKey, filesDir: settings.filesDir, keys, logger });
}
