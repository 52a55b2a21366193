import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';

/**
 * The platform over HTTPS, the directory with mutual TLS (docs/three-d-secure.md, "Mutual TLS"):
 * the server's certificate and key, and the CA a 3DS server's client certificate must chain to.
 * One listener serves the DS and the ACS: the TLS handshake asks every client for a certificate
 * but lets one without through, and the DS's endpoints (/ds/*) answer 403 to a client that did
 * not present a certificate of that CA, while the ACS's pages stay open to the shopper's browser.
 */
export interface ThreeDsHostTls {
  readonly cert: string;
  readonly key: string;
  /** With it, /ds/* requires a client certificate issued by this CA; without it, TLS of the server only. */
  readonly clientCa?: string | undefined;
}

export function createListener(handler: RequestListener, tls: ThreeDsHostTls | undefined): Server {
  if (!tls) return createHttpServer(handler);
  const mutual = tls.clientCa !== undefined ? { requestCert: true, rejectUnauthorized: false, ca: tls.clientCa } : {};
  return createHttpsServer({ cert: tls.cert, key: tls.key, ...mutual }, handler);
}

/** Whether a DS request may be answered: always without mutual TLS; with it, only to a client the CA vouches for. */
export function clientAllowed(request: IncomingMessage, tls: ThreeDsHostTls | undefined): boolean {
  if (tls?.clientCa === undefined) return true;
  return (request.socket as TLSSocket).authorized === true;
}
