import { timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Server as NetServer, Socket } from 'node:net';
import { dirname } from 'node:path';
import ssh2 from 'ssh2';
import type { AuthContext, Connection, ParsedKey } from 'ssh2';
import type { SftpSettings } from '../config/sftp-settings.js';
import { ENTITY_ID_PATTERN } from '../domain/ids.js';
import { merchantFolder } from '../operations/settlement/write-reconciliation-file.js';
import { readableEd25519KeyPair } from './ed25519-key.js';
import { serveReadOnly } from './read-only-sftp.js';
import { budgetOf, DEFAULT_SFTP_LIMITS, MAX_AUTH_ATTEMPTS_PER_CONNECTION, MAX_CHANNELS_PER_CONNECTION, type Budget, type SftpLimits } from './sftp-limits.js';

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
  /** Defaults: DEFAULT_SFTP_LIMITS. */
  readonly limits?: SftpLimits | undefined;
}

export interface RunningSftpServer {
  readonly port: number;
  /** What the server holds now: open files (descriptors), logged-in sessions, logins in progress. */
  load(): { readonly openFiles: number; readonly sessions: number; readonly pendingAuth: number };
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

/** The server's counts across its connections, against its limits. */
interface ServerState {
  readonly limits: SftpLimits;
  readonly openFiles: Budget;
  pendingAuth: number;
  /** The sockets not logged in yet, each with what marks it logged in. */
  readonly loginOf: Map<Socket, () => void>;
  readonly sessionsOf: Map<string, number>;
}

/** A merchant's session slot, or false when it holds its most. Taken and checked in one tick. */
function takeSession(state: ServerState, merchantId: string): boolean {
  const held = state.sessionsOf.get(merchantId) ?? 0;
  if (held >= state.limits.maxSessionsPerMerchant) return false;
  state.sessionsOf.set(merchantId, held + 1);
  return true;
}

function giveSession(state: ServerState, merchantId: string): void {
  const held = (state.sessionsOf.get(merchantId) ?? 1) - 1;
  if (held > 0) state.sessionsOf.set(merchantId, held);
  else state.sessionsOf.delete(merchantId);
}

/**
 * A socket from its arrival to its login, before ssh2 has read a byte of it: counted among the
 * pending ones (bounded) and closed when it has not logged in within the auth timeout, so that
 * sockets that never finish their greeting cannot hold the server's connections either.
 */
function guardLogins(server: InstanceType<typeof Server>, state: ServerState): void {
  // ssh2 exposes its listening socket's connections only after the client's greeting.
  const listener = (server as unknown as { _srv: NetServer })._srv;
  listener.on('connection', (socket: Socket) => {
    if (socket.destroyed) return;
    if (state.pendingAuth >= state.limits.maxPendingAuth) return void socket.destroy();
    state.pendingAuth += 1;
    const timer = setTimeout(() => socket.destroy(), state.limits.authTimeoutMs);
    let pending = true;
    const loggedIn = () => {
      if (!pending) return;
      pending = false;
      state.pendingAuth -= 1;
      state.loginOf.delete(socket);
      clearTimeout(timer);
    };
    socket.once('close', loggedIn);
    state.loginOf.set(socket, loggedIn);
  });
}

/** The connection's socket (ssh2 keeps it as _sock): where guardLogins keeps its count. */
const socketOf = (client: Connection) => (client as unknown as { _sock: Socket })._sock;

/** A connection's login: a bounded number of attempts, one session slot of its merchant. */
function admit(client: Connection, state: ServerState, onAuthenticated: (merchantId: string) => void, options: SftpServerOptions): void {
  let attempts = 0;
  let merchantId: string | undefined;
  client.on('authentication', (ctx) => {
    attempts += 1;
    if (attempts > MAX_AUTH_ATTEMPTS_PER_CONNECTION) return void client.end();
    if (ctx.method !== 'publickey' || !ENTITY_ID_PATTERN.test(ctx.username)) return ctx.reject(['publickey']);
    options.keys.publicKeysOf(ctx.username).then(
      (keys) => {
        if (!keyAccepted(ctx, keys)) return ctx.reject(['publickey']);
        if (!ctx.signature) return ctx.accept();
        if (merchantId === undefined && !takeSession(state, ctx.username)) {
          options.logger?.warn({ merchantId: ctx.username, maxSessionsPerMerchant: state.limits.maxSessionsPerMerchant }, 'sftp login refused: the merchant holds its most sessions');
          return ctx.reject([]);
        }
        merchantId ??= ctx.username;
        ctx.accept();
      },
      () => ctx.reject(['publickey']),
    );
  });
  client.on('close', () => merchantId !== undefined && giveSession(state, merchantId));
  client.on('ready', () => {
    state.loginOf.get(socketOf(client))?.();
    onAuthenticated(merchantId!);
  });
}

/** An authenticated connection: one SFTP channel over the merchant's folder, closed when idle. */
function serveSession(client: Connection, state: ServerState, merchantId: string, options: SftpServerOptions): void {
  let channels = 0;
  const idle = setTimeout(() => client.end(), state.limits.idleTimeoutMs);
  const onRequest = () => idle.refresh();
  client.on('close', () => clearTimeout(idle));
  client.on('session', (acceptSession, rejectSession) => {
    if (channels >= MAX_CHANNELS_PER_CONNECTION) return rejectSession();
    channels += 1;
    const session = acceptSession();
    session.on('sftp', (acceptSftp) => {
      // Accepted and served at once (synchronously): the client's first packet follows the
      // acceptance immediately and would be lost. A merchant without files yet sees an empty folder.
      const folder = merchantFolder(options.filesDir, merchantId);
      mkdirSync(folder, { recursive: true });
      serveReadOnly(acceptSftp(), folder, { maxHandles: state.limits.maxHandlesPerSession, openFiles: state.openFiles, onRequest });
    });
  });
}

function onClient(client: Connection, state: ServerState, options: SftpServerOptions): void {
  client.on('error', (error) => options.logger?.warn({ err: { type: error.name } }, 'sftp client error'));
  admit(client, state, (merchantId) => serveSession(client, state, merchantId, options), options);
}

/**
 * The built-in SFTP server: each merchant sees its own folder of reconciliation files, read-only,
 * within the limits of src/sftp/sftp-limits.ts.
 */
export async function startSftpServer(options: SftpServerOptions): Promise<RunningSftpServer> {
  const limits = options.limits ?? DEFAULT_SFTP_LIMITS;
  const state: ServerState = { limits, openFiles: budgetOf(limits.maxOpenFiles), pendingAuth: 0, loginOf: new Map(), sessionsOf: new Map() };
  const clients = new Set<Connection>();
  const server = new Server({ hostKeys: [options.hostKey] }, (client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    onClient(client, state, options);
  });
  // ssh2 drops a socket over this count before it reads a byte.
  server.maxConnections = limits.maxSessions;
  guardLogins(server, state);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  // Past the start (an accept that fails for want of descriptors): logged, never thrown into the process.
  server.on('error', (error: Error) => options.logger?.warn({ err: { type: error.name, code: (error as NodeJS.ErrnoException).code } }, 'sftp server error'));
  const address = server.address() as { port: number };
  return {
    port: address.port,
    load: () => ({ openFiles: state.openFiles.used, sessions: [...state.sessionsOf.values()].reduce((a, b) => a + b, 0), pendingAuth: state.pendingAuth }),
    close: () => {
      // Ended too, or a connected client would hold the stop until its idle (or auth) timeout.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const client of clients) client.end();
      for (const socket of state.loginOf.keys()) socket.destroy();
      return closed;
    },
  };
}

/** The host key from its file, made (ed25519, owner-only) when there is none yet. */
export async function loadOrCreateHostKey(file: string): Promise<string> {
  if (existsSync(file)) return readFile(file, 'utf8');
  const { private: key } = readableEd25519KeyPair();
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, key, { mode: 0o600 });
  return key;
}

/** The SFTP server SFTP_PORT asks for, over the stored keys; undefined when not configured. */
export async function startConfiguredSftp(
  settings: { readonly filesDir: string; readonly sftp: SftpSettings | undefined },
  keys: SftpKeyStore,
  logger: SftpServerOptions['logger'],
): Promise<RunningSftpServer | undefined> {
  if (!settings.sftp) return undefined;
  const { host, port, hostKeyFile, limits } = settings.sftp;
  const hostKey = await loadOrCreateHostKey(hostKeyFile);
  return startSftpServer({ host, port, hostKey, filesDir: settings.filesDir, keys, logger, limits });
}
