import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prometheusContentType as contentType } from 'prom-client';
import type { GatewayMetrics } from './metrics.js';

/**
 * `npm run worker` serves no HTTP, so its metrics get a listener of their own (METRICS_PORT): GET
 * /metrics and nothing else. It binds to loopback unless METRICS_HOST says otherwise, like the
 * admin listener: the scraper is the operator's.
 */
export async function listenForScrapes(metrics: GatewayMetrics, listener: { readonly host: string; readonly port: number }): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listener.port, listener.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
