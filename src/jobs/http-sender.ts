import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { LookupAddress } from 'node:dns';
import { withLocalReceivers, type WebhookTargetRules } from '../domain/webhook-url.js';
import { withTraceHeaders } from '../observability/tracing/delivery-span.js';
import { tracingOn } from '../observability/tracing/state.js';
import type { NotificationRequest, NotificationSender, SendOutcome } from '../operations/webhooks/ports.js';
import { checkedAddresses, pinnedLookup, RefusedTargetError, systemResolve, type ResolveHost } from './checked-target.js';

export interface HttpSenderOptions {
  /** The receiver must answer within this time (compatibility.md: 30 s). */
  readonly timeoutMs: number;
  /** Connections kept open to one receiver; bounds what one merchant's endpoint can take. */
  readonly maxSocketsPerHost: number;
  /** Which addresses may be reached (config.workers.webhookTargets): checked at every attempt. */
  readonly targets: WebhookTargetRules;
  /** DNS; the system resolver when absent. */
  readonly resolve?: ResolveHost | undefined;
}

export interface ClosableSender extends NotificationSender {
  close(): void;
}

const MAX_ERROR_LENGTH = 200;

function describeTransportError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return (typeof code === 'string' ? `${code}: ${message}` : message).slice(0, MAX_ERROR_LENGTH);
}

type Agents = { readonly http: http.Agent; readonly https: https.Agent };

/**
 * Posts notifications with node:http and keep-alive agents. Before each attempt the URL's host is
 * resolved and every address checked (domain/webhook-address.ts); the connection may use only
 * those addresses. A refused target answers `refused`, a permanent failure. Redirects are not
 * followed: a 3xx is a failed attempt, so a notification never lands somewhere the merchant did
 * not register. The answer counts once its status line arrives; its body is read and thrown away.
 */
export function httpNotificationSender(options: HttpSenderOptions): ClosableSender {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost, scheduling: 'lifo' as const };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const resolve = options.resolve ?? systemResolve;
  return {
    send: (request) => post(request, agents, options.timeoutMs, (url) => checkedAddresses(url, withLocalReceivers(options.targets, request.localReceivers), resolve)),
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function post(request: NotificationRequest, agents: Agents, timeoutMs: number, check: (url: URL) => Promise<readonly LookupAddress[]>): Promise<SendOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let outgoing: http.ClientRequest | undefined;
    const finish = (httpStatus: number | null, error: string | null, refused = false) => {
      if (settled) return;
      settled = true;
      resolve({ httpStatus, error, latencyMs: Math.round(performance.now() - started), ...(refused ? { refused } : {}) });
    };
    // One deadline for the whole exchange, resolution and body included, so a trickling receiver cannot hold a slot.
    const deadline = setTimeout(() => {
      finish(null, `no answer within ${timeoutMs} ms`);
      outgoing?.destroy();
    }, timeoutMs);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      clearTimeout(deadline);
      finish(null, 'invalid URL', true);
      return;
    }
    check(url).then(
      (addresses) => {
        if (settled) return;
        outgoing = send(request, url, addresses, agents);
        outgoing.on('response', (response) => {
          finish(response.statusCode ?? null, null);
          response.on('end', () => clearTimeout(deadline));
          response.resume();
        });
        outgoing.on('error', (error) => finish(null, describeTransportError(error)));
        outgoing.on('close', () => finish(null, 'connection closed without an answer'));
      },
      (error: unknown) => {
        clearTimeout(deadline);
        const refused = error instanceof RefusedTargetError;
        finish(null, refused ? `refused: ${error.message}` : describeTransportError(error), refused);
      },
    );
  });
}

function send(request: NotificationRequest, url: URL, addresses: readonly LookupAddress[], agents: Agents): http.ClientRequest {
  const secure = url.protocol === 'https:';
  const method = request.method ?? 'POST';
  // The merchant's receiver can join the delivery to the payment's trace (W3C Trace Context).
  const headers = tracingOn ? withTraceHeaders(request.headers) : request.headers;
  const outgoing = (secure ? https : http).request(url, {
    method,
    agent: secure ? agents.https : agents.http,
    lookup: pinnedLookup(addresses),
    headers: method === 'GET' ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
  });
  outgoing.end(method === 'GET' ? undefined : request.body);
  return outgoing;
}
