import { mkdir, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { decodeMessage, encodeMessage } from '../../src/connectors/iso8583/codec.js';
import { frame, FrameReader } from '../../src/connectors/iso8583/framing.js';
import type { IsoMessage } from '../../src/connectors/iso8583/message.js';
import { EMULATOR_PROFILE, type AcquirerProfile } from '../../src/connectors/iso8583/profile.js';
import { handleMessage, type HostState } from './handle.js';
import { Ledger } from './ledger.js';
import { renderSettlementFile } from './settlement-file.js';

export interface AcquirerHostOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** PEM key and certificate: the host speaks TLS. */
  readonly tls?: { readonly key: string; readonly cert: string } | undefined;
  readonly profile?: AcquirerProfile;
  /** How late a slow answer comes (the table's `slow` rows). */
  readonly slowMs?: number;
  /** The query port (ledger and settlement files over HTTP); undefined: none. 0 picks a free port. */
  readonly queryPort?: number | undefined;
  /** Where writeSettlementFile puts the daily files. */
  readonly settlementDir?: string | undefined;
  readonly clock?: () => Date;
  /**
   * Where the host's counter (RRNs, authorisation codes) starts; 0 by default. A host started again
   * on the same day must not hand out an RRN it already gave: the gateway matches settlement by it.
   */
  readonly firstSequence?: number;
}

export interface AcquirerHost {
  readonly port: number;
  readonly queryPort: number | undefined;
  readonly ledger: Ledger;
  readonly profile: AcquirerProfile;
  /** Messages received, by MTI (0800 sign-ons and echoes included). */
  readonly received: ReadonlyMap<string, number>;
  settlementFile(date: string): string;
  /** Writes settlement-<date>.txt into settlementDir and answers its path. */
  writeSettlementFile(date: string): Promise<string>;
  /** Closes every open connection at once (a network cut); the host goes on listening. */
  dropConnections(): void;
  close(): Promise<void>;
}

/** Longer than the gateway's default ACQUIRER_HOST_TIMEOUT_MS (10 s), so a slow answer is a timeout for it. */
export const DEFAULT_SLOW_MS = 15_000;

/** Starts the processor test platform: in-process for tests, or from main.ts as its own program. */
export async function startAcquirerHost(options: AcquirerHostOptions = {}): Promise<AcquirerHost> {
  const profile = options.profile ?? EMULATOR_PROFILE;
  const state: HostState = { ledger: new Ledger(), clock: options.clock ?? (() => new Date()), reversals: new Map(), sequence: options.firstSequence ?? 0 };
  const received = new Map<string, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const onSocket = (socket: Socket): void => serveConnection(socket, { profile, state, received, sockets, timers, slowMs: options.slowMs ?? DEFAULT_SLOW_MS });
  const server: Server = options.tls ? createTlsServer({ key: options.tls.key, cert: options.tls.cert }, onSocket) : createTcpServer(onSocket);
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const settlementFile = (date: string): string => renderSettlementFile(state.ledger, date, profile.clearingInstituteName);
  const query = options.queryPort === undefined ? undefined : await startQueryServer(options.queryPort, options.host ?? '127.0.0.1', state.ledger, settlementFile);
  return {
    port: (server.address() as AddressInfo).port,
    queryPort: query ? (query.address() as AddressInfo).port : undefined,
    ledger: state.ledger,
    profile,
    received,
    settlementFile,
    async writeSettlementFile(date) {
      const dir = options.settlementDir ?? '.';
      await mkdir(dir, { recursive: true });
      const path = join(dir, `settlement-${date}.txt`);
      await writeFile(path, settlementFile(date));
      return path;
    },
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await Promise.all([new Promise((resolve) => server.close(resolve)), query ? new Promise((resolve) => query.close(resolve)) : undefined]);
    },
  };
}

interface ConnectionContext {
  readonly profile: AcquirerProfile;
  readonly state: HostState;
  readonly received: Map<string, number>;
  readonly sockets: Set<Socket>;
  readonly timers: Set<NodeJS.Timeout>;
  readonly slowMs: number;
}

function serveConnection(socket: Socket, context: ConnectionContext): void {
  const { profile, sockets } = context;
  sockets.add(socket);
  socket.setNoDelay(true);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => socket.destroy());
  const reader = new FrameReader(profile.framing);
  socket.on('data', (chunk: Buffer) => {
    let messages: IsoMessage[];
    try {
      messages = reader.push(chunk).map((bytes) => decodeMessage(bytes, profile));
    } catch {
      // A stream that does not parse cannot be answered in step: a real host closes it too.
      socket.destroy();
      return;
    }
    for (const message of messages) answer(socket, message, context);
  });
}

function answer(socket: Socket, request: IsoMessage, context: ConnectionContext): void {
  context.received.set(request.mti, (context.received.get(request.mti) ?? 0) + 1);
  const { answer: reply, behaviour } = handleMessage(request, context.state);
  if (!reply) return;
  const bytes = frame(encodeMessage(reply, context.profile), context.profile.framing);
  const send = (): void => {
    if (!socket.destroyed) socket.write(bytes);
  };
  if (behaviour === 'drop') socket.destroy();
  else if (behaviour === 'duplicate') {
    send();
    send();
  } else if (behaviour === 'slow') {
    const timer = setTimeout(() => {
      context.timers.delete(timer);
      send();
    }, context.slowMs);
    context.timers.add(timer);
  } else send();
}

function listen(server: Server | HttpServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** GET /ledger, GET /ledger/<gateway id>, GET /settlement/<YYYY-MM-DD>: what the host believes, for tests and rehearsals. */
async function startQueryServer(port: number, host: string, ledger: Ledger, settlementFile: (date: string) => string): Promise<HttpServer> {
  const server = createHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    const [, resource, key] = url.pathname.split('/');
    const json = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (resource === 'ledger' && !key) return json(200, ledger.toJSON());
    if (resource === 'ledger' && key) {
      const entry = ledger.toJSON().find((e) => (e as { gatewayTransactionId: string }).gatewayTransactionId === key);
      return entry ? json(200, entry) : json(404, { error: 'unknown transaction' });
    }
    if (resource === 'settlement' && key && /^\d{4}-\d{2}-\d{2}$/.test(key)) {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(settlementFile(key));
      return;
    }
    json(404, { error: 'not found' });
  });
  await listen(server, port, host);
  return server;
}
