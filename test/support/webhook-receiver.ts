import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptNotification } from '../../src/domain/webhook-crypto.js';
import type { WebhookTargetRules } from '../../src/domain/webhook-url.js';

/**
 * Receivers listen on 127.0.0.1, which notifications may not reach by default (an SSRF guard);
 * tests allow it the way an operator would, with WEBHOOK_ALLOWED_ADDRESSES.
 */
export const RECEIVER_ENV = { WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1/32' } as const;
export const RECEIVER_TARGETS: WebhookTargetRules = { httpsOnly: false, allowedAddresses: ['127.0.0.1/32'] };

/** One notification as a merchant's receiver sees it, after decryption. */
export interface ReceivedNotification {
  readonly path: string;
  /** X-Notification-Id. */
  readonly notificationId: string;
  readonly headers: IncomingMessage['headers'];
  /** The decrypted (or, without a secret, the plain) body, parsed. */
  readonly body: { id: string; type: string; action?: string; payload: Record<string, unknown> };
  readonly rawBody: string;
  /** The status the receiver answered with. */
  readonly status: number;
}

/** What the receiver answers on a path: a status code, or 'hang' (never answers). */
export type Behaviour = number | 'hang';

/**
 * A merchant's webhook endpoint for tests: node:http on 127.0.0.1, port 0. It decrypts with the
 * secret registered for the path (as docs/webhooks.md tells merchants to), answers 400 when that
 * fails, and records every notification it could read. It can go down and come back on the same
 * port.
 */
export class WebhookReceiver {
  readonly received: ReceivedNotification[] = [];
  readonly rejected: { path: string; reason: string }[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly behaviours = new Map<string, Behaviour>();
  private defaultBehaviour: Behaviour = 200;
  private listeners: (() => void)[] = [];
  private server: Server | undefined;
  private port = 0;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.listen();
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  setSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** How to answer on one path, or (path undefined) on every path without its own behaviour. */
  answer(behaviour: Behaviour, path?: string): void {
    if (path === undefined) this.defaultBehaviour = behaviour;
    else this.behaviours.set(path, behaviour);
  }

  on(path: string): ReceivedNotification[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Acknowledged notifications per notification id on a path. */
  acknowledgedCounts(path: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of this.on(path)) if (r.status >= 200 && r.status < 300) counts.set(r.notificationId, (counts.get(r.notificationId) ?? 0) + 1);
    return counts;
  }

  /** Resolves when `condition` holds, checked after each request (for tests with a real worker process). */
  until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return false;
        resolve();
        return true;
      };
      if (check()) return;
      const listener = () => {
        if (check()) this.listeners = this.listeners.filter((l) => l !== listener);
      };
      this.listeners.push(listener);
    });
  }

  /** Goes down: refuses connections until restart(). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restart(): Promise<void> {
    await this.listen(this.port);
  }

  private listen(port = 0): Promise<void> {
    const server = createServer((request, response) => this.handle(request, response));
    server.keepAliveTimeout = 60_000;
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0]!;
      const behaviour = this.behaviours.get(path) ?? this.defaultBehaviour;
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const body = this.read(path, request, rawBody);
      if (behaviour === 'hang') return;
      const status = body === undefined ? 400 : behaviour;
      if (body !== undefined) {
        this.received.push({ path, notificationId: String(request.headers['x-notification-id']), headers: request.headers, body, rawBody, status });
      }
      response.writeHead(status).end();
      for (const listener of [...this.listeners]) listener();
    });
  }

  private read(path: string, request: IncomingMessage, rawBody: string): ReceivedNotification['body'] | undefined {
    const secret = this.secrets.get(path);
    try {
      const text = secret
        ? decryptNotification(
            { bodyHex: rawBody, ivHex: String(request.headers['x-initialization-vector']), tagHex: String(request.headers['x-authentication-tag']) },
            secret,
          )
        : rawBody;
      return JSON.parse(text) as ReceivedNotification['body'];
    } catch (error) {
      this.rejected.push({ path, reason: (error as Error).message });
      return undefined;
    }
  }
}
