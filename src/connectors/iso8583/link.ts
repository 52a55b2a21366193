import { connect as connectTcp, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { connect as connectTls } from 'node:tls';
import { decodeMessage, encodeMessage } from './codec.js';
import { frame, FrameReader } from './framing.js';
import { isResponseMti, matchKey, type IsoMessage } from './message.js';
import type { AcquirerProfile, HostEndpoint } from './profile.js';
import { traceIncoming, traceOutgoing } from './trace.js';

/** Why a request got no answer. `not-sent`: nothing left the gateway, so nothing can have moved. */
export type NoAnswer = 'timeout' | 'closed' | 'not-sent';
export type Exchange = { readonly ok: true; readonly answer: IsoMessage } | { readonly ok: false; readonly because: NoAnswer };

/** Why a connection ended: the host's side, an unreadable stream, or the gateway's decision. */
export type CloseReason = 'closed-by-host' | 'socket-error' | 'unreadable-stream' | 'condemned' | 'sign-on-failed' | 'pool-closed';

interface Waiting {
  readonly resolve: (exchange: Exchange) => void;
  readonly timer: NodeJS.Timeout;
  /** Monotonic milliseconds (performance.now()): liveness is measured on the process's own timeline, never the domain clock. */
  readonly sentAtMs: number;
}

export interface LinkEvents {
  /** Answers that matched no open request (a duplicate, a late answer after a timeout). */
  onUnmatched?(message: IsoMessage): void;
  onClose?(reason: CloseReason): void;
  /** Each message sent and received as a masked hex trace (trace.ts): for an operator's debugging only. */
  onTrace?(direction: 'sent' | 'received', trace: string): void;
}

/**
 * One TCP (or TLS) connection to an acquirer host: requests are matched to their answers by MTI
 * class, STAN and terminal, so many may be in flight on one connection. A request that is not
 * answered in time, or whose connection closes first, resolves without answer; the caller
 * decides what that means (never a success).
 */
export class Link {
  readonly #waiting = new Map<string, Waiting>();
  #socket: Socket | undefined;
  #closed = false;
  /** Takes no new request; closes once what is in flight is answered or timed out. */
  #condemned = false;
  #lastFrameAtMs = performance.now();

  constructor(
    private readonly profile: AcquirerProfile,
    private readonly events: LinkEvents = {},
  ) {}

  get inFlight(): number {
    return this.#waiting.size;
  }

  get usable(): boolean {
    return this.#socket !== undefined && !this.#closed && !this.#condemned;
  }

  /**
   * How long this connection has had requests waiting without a whole frame arriving: a host
   * stuck on a partial frame (or silent) shows here while other connections still answer.
   */
  stalledMs(nowMs: number = performance.now()): number {
    const oldest = this.#waiting.values().next().value as Waiting | undefined;
    if (!oldest) return 0;
    return nowMs - Math.max(this.#lastFrameAtMs, oldest.sentAtMs);
  }

  async open(endpoint: HostEndpoint, connectTimeoutMs: number): Promise<void> {
    const socket = await connectSocket(endpoint, connectTimeoutMs);
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    this.#socket = socket;
    const reader = new FrameReader(this.profile.framing);
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const bytes of reader.push(chunk)) {
          this.#lastFrameAtMs = performance.now();
          this.events.onTrace?.('received', traceIncoming(bytes, this.profile, this.profile.maskedFields));
          this.receive(decodeMessage(bytes, this.profile));
        }
      } catch {
        // An unreadable stream cannot be matched any more: what is open becomes unknown.
        this.close('unreadable-stream');
      }
    });
    socket.on('error', () => this.close('socket-error'));
    socket.on('close', () => this.close('closed-by-host'));
  }

  /** Sends one request and waits for its answer at most `timeoutMs`. */
  exchange(request: IsoMessage, timeoutMs: number): Promise<Exchange> {
    const socket = this.#socket;
    if (!socket || this.#closed || this.#condemned) return Promise.resolve({ ok: false, because: 'not-sent' });
    const key = matchKey(request);
    if (this.#waiting.has(key)) return Promise.resolve({ ok: false, because: 'not-sent' });
    const bytes = frame(encodeMessage(request, this.profile), this.profile.framing);
    this.events.onTrace?.('sent', traceOutgoing(request, this.profile, this.profile.maskedFields));
    return new Promise<Exchange>((resolve) => {
      const timer = setTimeout(() => this.settle(key, { ok: false, because: 'timeout' }), timeoutMs);
      this.#waiting.set(key, { resolve, timer, sentAtMs: performance.now() });
      socket.write(bytes);
    });
  }

  /**
   * The connection takes no new request; what is in flight may still be answered on it (late
   * answers of requests that timed out are dropped as unmatched), then it closes.
   */
  condemn(): void {
    if (this.#closed || this.#condemned) return;
    this.#condemned = true;
    if (this.#waiting.size === 0) this.close('condemned');
  }

  close(reason: CloseReason): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#socket?.destroy();
    for (const key of [...this.#waiting.keys()]) this.settle(key, { ok: false, because: 'closed' });
    this.events.onClose?.(reason);
  }

  private receive(message: IsoMessage): void {
    const key = isResponseMti(message.mti) ? matchKey(message) : '';
    if (!this.settle(key, { ok: true, answer: message })) this.events.onUnmatched?.(message);
  }

  private settle(key: string, exchange: Exchange): boolean {
    const waiting = this.#waiting.get(key);
    if (!waiting) return false;
    this.#waiting.delete(key);
    clearTimeout(waiting.timer);
    waiting.resolve(exchange);
    if (this.#condemned && this.#waiting.size === 0) this.close('condemned');
    return true;
  }
}

function connectSocket(endpoint: HostEndpoint, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const options = { host: endpoint.host, port: endpoint.port };
    const socket = endpoint.tls
      ? connectTls({ ...options, servername: endpoint.serverName ?? endpoint.host, ...(endpoint.caPem ? { ca: endpoint.caPem } : {}) })
      : connectTcp(options);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('connect timeout'));
    }, timeoutMs);
    socket.once(endpoint.tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      // Until open() listens, an error must not go unhandled; the 'close' that follows is seen.
      socket.on('error', () => undefined);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
