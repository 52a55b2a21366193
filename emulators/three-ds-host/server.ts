import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openChallenge, submitChallenge, type AcsState, type Page } from './acs.js';
import { answerAReq, answerPReq, type DsAnswer } from './directory.js';
import { answerAppCReq, APP_CHALLENGE_PATH, newAppSigner } from './app-challenge.js';
import { ThreeDsLog } from './log.js';
import { METHOD_PATH, METHOD_SCRIPT, METHOD_SCRIPT_PATH, runMethod } from './method.js';
import { clientAllowed, createListener, type ThreeDsHostTls } from './tls.js';
import { contentSecurityPolicy, STYLESHEET, STYLESHEET_PATH } from './pages.js';
import { directoryTransport } from '../../src/connectors/emv3ds-server/mtls-fetch.js';

export interface ThreeDsHostOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** How the platform's own address is written in the ARes's acsURL; default http://<host>:<port>. */
  readonly publicUrl?: string;
  /** How late the table's slow answers come. */
  readonly slowMs?: number;
  /** How long the ACS waits for the 3DS Server's RRes. */
  readonly rreqTimeoutMs?: number;
  readonly clock?: () => Date;
  /** acsTransID and dsTransID; random UUIDs by default. */
  readonly newId?: () => string;
  /** HTTPS, and with clientCa mutual TLS for the DS's endpoints (tls.ts); plain HTTP without. */
  readonly tls?: ThreeDsHostTls | undefined;
  /**
   * PEM of the CA the 3DS server's certificate chains to, where its threeDSServerURL is https with
   * a certificate of a private CA (a rehearsal's): the ACS's RReq then trusts it alone. Unset: the
   * system's CAs (Node's fetch).
   */
  readonly resultsCa?: string | undefined;
}

export interface ThreeDsHost {
  readonly port: number;
  readonly url: string;
  readonly log: ThreeDsLog;
  close(): Promise<void>;
}

/** Longer than a 3DS Server's usual AReq timeout (the spec's example is 10 s), so a slow answer is a timeout. */
export const DEFAULT_SLOW_MS = 15_000;
export const DEFAULT_RREQ_TIMEOUT_MS = 10_000;
/** Every message the platform takes is far smaller; a larger body is refused unread. */
const MAX_BODY_BYTES = 64 * 1024;

/** Starts the 3DS test platform (DS and ACS in one): in-process for tests, or from main.ts. */
export async function startThreeDsHost(options: ThreeDsHostOptions = {}): Promise<ThreeDsHost> {
  const host = options.host ?? '127.0.0.1';
  const timers = new Set<NodeJS.Timeout>();
  const results = options.resultsCa !== undefined ? directoryTransport({ ca: options.resultsCa }) : undefined;
  let state: AcsState | undefined;
  const server = createListener((request, response) => {
    if (request.url?.startsWith('/ds/') && !clientAllowed(request, options.tls)) return plain(response, 403, 'a client certificate of the directory\'s CA is required');
    void route(request, response, state!, timers).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('internal error');
    });
  }, options.tls);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = options.publicUrl ?? `${options.tls ? 'https' : 'http'}://${host}:${port}`;
  state = {
    log: new ThreeDsLog(options.clock ?? (() => new Date())), newId: options.newId ?? randomUUID, acsUrl: `${url}/acs/challenge`, methodUrl: `${url}${METHOD_PATH}`,
    slowMs: options.slowMs ?? DEFAULT_SLOW_MS, rreqTimeoutMs: options.rreqTimeoutMs ?? DEFAULT_RREQ_TIMEOUT_MS, challenges: new Map(),
    ...(results ? { resultsFetch: results.fetch } : {}),
    appSigner: newAppSigner(), appChallengeUrl: `${url}${APP_CHALLENGE_PATH}`,
  };
  return {
    port, url, log: state.log,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      results?.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function route(request: IncomingMessage, response: ServerResponse, state: AcsState, timers: Set<NodeJS.Timeout>): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://host').pathname;
  if (request.method === 'GET') return answerGet(path, response, state);
  if (request.method !== 'POST') return plain(response, 405, 'method not allowed');
  const body = await readBody(request);
  if (body === undefined) return plain(response, 413, 'body too large');
  if (path === '/ds/areq') return sendDs(response, answerAReq(body, state), timers);
  if (path === '/ds/preq') return sendDs(response, answerPReq(body, state), timers);
  if (path === '/acs/challenge') return sendPage(response, openChallenge(new URLSearchParams(body), state));
  if (path === METHOD_PATH) return sendMethod(response, runMethod(new URLSearchParams(body), state.log));
  if (path === '/acs/challenge/submit') return sendPage(response, await submitChallenge(new URLSearchParams(body), state));
  if (path === APP_CHALLENGE_PATH) {
    const answer = await answerAppCReq(body, state);
    return json(response, answer.status, answer.message);
  }
  plain(response, 404, 'not found');
}

/** GET /log, GET /log/<threeDSServerTransID>, and the challenge page's stylesheet. */
function answerGet(path: string, response: ServerResponse, state: AcsState): void {
  if (path === STYLESHEET_PATH) {
    response.writeHead(200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'max-age=300' }).end(STYLESHEET);
    return;
  }
  if (path === METHOD_SCRIPT_PATH) {
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'max-age=300', 'x-content-type-options': 'nosniff' }).end(METHOD_SCRIPT);
    return;
  }
  const [, resource, key] = path.split('/');
  if (resource === 'log' && !key) return json(response, 200, state.log.entries());
  const entry = resource === 'log' && key ? state.log.get(decodeURIComponent(key)) : undefined;
  if (entry) return json(response, 200, entry);
  json(response, 404, { error: resource === 'log' ? 'unknown transaction' : 'not found' });
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** EMV 3DS answers travel as HTTP 200 whatever they say: an Erro is a message, not a transport failure. */
function sendDs(response: ServerResponse, answer: DsAnswer, timers: Set<NodeJS.Timeout>): void {
  if ('text' in answer) {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(answer.text);
    return;
  }
  const send = (): void => json(response, 200, answer.message);
  if (!answer.delayMs) return send();
  const timer = setTimeout(() => {
    timers.delete(timer);
    if (!response.destroyed) send();
  }, answer.delayMs);
  timers.add(timer);
}

function sendPage(response: ServerResponse, page: Page): void {
  response.writeHead(page.status, {
    'content-type': 'text/html; charset=utf-8', 'content-security-policy': contentSecurityPolicy(page.formTarget),
    'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
  }).end(page.html);
}

/** The method page runs in the requestor's hidden iframe, whatever its origin: no frame-ancestors. */
function sendMethod(response: ServerResponse, page: { readonly status: number; readonly html: string; readonly csp: string }): void {
  response.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.csp, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' }).end(page.html);
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}
