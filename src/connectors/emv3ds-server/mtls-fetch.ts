import http from 'node:http';
import https from 'node:https';
import type { RouteTls } from './route-settings.js';

/** The ARes is far smaller; a larger answer is no ARes and is cut off unread. */
const MAX_ANSWER_BYTES = 256 * 1024;

/** Statuses a Response may not have a body with. */
const NO_BODY = new Set([204, 205, 304]);

export interface DirectoryTransport {
  /** The subset of fetch the connector uses (server.ts: POST, headers, body, signal). */
  readonly fetch: typeof fetch;
  /** Ends the kept-alive connections (a rotated or disabled route's). */
  close(): void;
}

/**
 * The connector's way to one route's directory (Emv3dsServerDeps.fetch): node:https with the
 * route's client certificate and key (mutual TLS) and its CA as the only trust anchor for the
 * directory's certificate (the system's CAs where the route has none). Node's global fetch cannot
 * take a client certificate without the undici package, so this speaks node:https and answers a
 * standard Response. A redirect is answered as it comes (not ok): the directory answers at the
 * address configured or not at all.
 */
export function directoryTransport(tls: RouteTls): DirectoryTransport {
  const agent = new https.Agent({ keepAlive: true, ...(tls.cert ? { cert: tls.cert } : {}), ...(tls.key ? { key: tls.key } : {}), ...(tls.ca ? { ca: tls.ca } : {}) });
  const plainAgent = new http.Agent({ keepAlive: true });
  const post = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const client = url.protocol === 'https:' ? https : http;
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const request = client.request(url, { method: init.method ?? 'GET', headers: init.headers as Record<string, string> | undefined, agent: url.protocol === 'https:' ? agent : plainAgent }, (answer) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) answer.destroy(new Error('answer too large'));
          else chunks.push(chunk);
        });
        answer.on('error', reject);
        answer.on('end', () => {
          const status = answer.statusCode ?? 502;
          resolve(new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), { status }));
        });
      });
      // The timeout's reason (TimeoutError) is what the connector tells a timeout by.
      const abort = () => { request.destroy(); reject(signal!.reason); };
      signal?.addEventListener('abort', abort, { once: true });
      request.on('error', reject);
      request.on('close', () => signal?.removeEventListener('abort', abort));
      request.end(typeof init.body === 'string' ? init.body : undefined);
    });
  };
  return {
    fetch: post as typeof fetch,
    close() {
      agent.destroy();
      plainAgent.destroy();
    },
  };
}
