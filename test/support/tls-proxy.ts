import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * A TLS-terminating proxy in front of a gateway that listens on plain HTTP on the loopback, as a
 * live gateway runs behind one with TRUST_PROXY_TLS=true: HTTPS with the given certificate, each
 * request passed on to the gateway with X-Forwarded-Proto: https (believed from a TRUSTED_PROXIES
 * address, the loopback by default) and its Host kept. For tests only.
 */
export interface TlsProxy {
  readonly url: string;
  close(): Promise<void>;
}

export async function startTlsProxy(tls: { readonly cert: string; readonly key: string }, targetPort: number): Promise<TlsProxy> {
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, (incoming, outgoing) => {
    const forwarded = httpRequest({
      host: '127.0.0.1', port: targetPort, method: incoming.method, path: incoming.url,
      headers: { ...incoming.headers, 'x-forwarded-proto': 'https', 'x-forwarded-for': incoming.socket.remoteAddress ?? '127.0.0.1' },
    }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
