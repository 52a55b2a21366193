import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { NotificationRequest, NotificationSender, SendOutcome } from '../operations/webhooks/ports.js';

export interface HttpSenderOptions {
  /** The receiver must answer within this time (compatibility.md: 30 s). */
  readonly timeoutMs: number;
  /** Connections kept open to one receiver; bounds what one merchant's endpoint can take. */
  readonly maxSocketsPerHost: number;
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

/**
 * Posts notifications with node:http and keep-alive agents. Redirects are not followed: a 3xx
 * is a failed attempt, so a notification never lands somewhere the merchant did not register.
 * The answer counts once its status line arrives; its body is read and thrown away.
 */
export function httpNotificationSender(options: HttpSenderOptions): ClosableSender {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost, scheduling: 'lifo' as const };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  return {
    send: (request) => post(request, agents, options.timeoutMs),
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function post(request: NotificationRequest, agents: { http: http.Agent; https: https.Agent }, timeoutMs: number): Promise<SendOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (httpStatus: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      resolve({ httpStatus, error, latencyMs: Math.round(performance.now() - started) });
    };
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      finish(null, 'invalid URL');
      return;
    }
    const secure = url.protocol === 'https:';
    const outgoing = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
    });
    // One deadline for the whole exchange, body included, so a trickling receiver cannot hold a slot.
    const deadline = setTimeout(() => {
      finish(null, `no answer within ${timeoutMs} ms`);
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('response', (response) => {
      finish(response.statusCode ?? null, null);
      response.on('end', () => clearTimeout(deadline));
      response.resume();
    });
    outgoing.on('error', (error) => finish(null, describeTransportError(error)));
    outgoing.on('close', () => {
      if (!settled) finish(null, 'connection closed without an answer');
    });
    outgoing.end(request.body);
  });
}
