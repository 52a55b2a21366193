import { traceExchange } from '../../observability/tracing/iso8583-span.js';
import { tracingOn } from '../../observability/tracing/state.js';
import { Link, type CloseReason, type Exchange } from './link.js';
import type { IsoMessage } from './message.js';
import type { AcquirerProfile, HostEndpoint } from './profile.js';
import { StanCounter, transmissionFields } from './stan.js';

export interface PoolOptions {
  readonly profile: AcquirerProfile;
  readonly endpoint: HostEndpoint;
  /** Connections kept open to the host. */
  readonly size: number;
  readonly connectTimeoutMs: number;
  /**
   * An idle connection is checked with an 0800 echo this often; one without answer is replaced.
   * A busy one that has received no whole frame for this long is replaced too.
   */
  readonly echoIntervalMs: number;
  readonly clock: () => Date;
  readonly onEvent?: (event: PoolEvent) => void;
  /** Masked hex traces of every message (trace.ts); absent: none are made. */
  readonly onTrace?: (direction: 'sent' | 'received', trace: string) => void;
}

/** Why the pool gave up a connection that was still open. */
export type CondemnReason = 'request-timeout' | 'echo-failed' | 'no-frame-while-busy';

/** What an operator wants in the log: nothing from inside a message. `link` is the pool's slot. */
export type PoolEvent =
  | { readonly type: 'connected'; readonly link: number }
  | { readonly type: 'connect-failed'; readonly link: number; readonly reason: string }
  | { readonly type: 'sign-on-failed'; readonly link: number; readonly reason: string }
  | { readonly type: 'echo-failed'; readonly link: number; readonly reason: string }
  | { readonly type: 'condemned'; readonly link: number; readonly reason: CondemnReason }
  | { readonly type: 'disconnected'; readonly link: number; readonly reason: CloseReason }
  | { readonly type: 'unmatched-answer'; readonly mti: string };

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 30_000;

/**
 * The connections to one host. Each is signed on (0800) when opened, echoed while idle, and
 * replaced when it closes, with a growing pause while the host stays unreachable. A connection
 * is condemned (replaced at once, closed when what is in flight on it has ended) when a request
 * on it times out, its echo fails, or it has requests waiting and no whole frame arrives for an
 * echo interval: a host stuck on a partial frame must not keep a slot while traffic flows.
 * Requests go to the open connection with the fewest in flight. Connections open on first use.
 */
export class LinkPool {
  readonly #links: (Link | undefined)[];
  readonly #connecting: (Promise<void> | undefined)[];
  readonly #failures: number[];
  readonly stan = new StanCounter();
  #echoTimer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(private readonly options: PoolOptions) {
    this.#links = new Array(options.size).fill(undefined);
    this.#connecting = new Array(options.size).fill(undefined);
    this.#failures = new Array(options.size).fill(0);
  }

  /** Requests sent and not yet answered, over every connection: the bench reports it. */
  get messagesInFlight(): number {
    return this.#links.reduce((sum, link) => sum + (link?.inFlight ?? 0), 0);
  }

  get openConnections(): number {
    return this.#links.filter((link) => link?.usable).length;
  }

  /** Connections the pool keeps open when the host lets it. */
  get size(): number {
    return this.#links.length;
  }

  /**
   * Opens and signs on the connections when none is open, as a first request would, and answers
   * how many are signed on: readiness asks before traffic does, so the first payment finds them.
   */
  async signOn(): Promise<number> {
    await this.pick();
    return this.openConnections;
  }

  /** Sends a request built with a fresh STAN on the least busy connection. */
  exchange(build: (stan: string) => IsoMessage, timeoutMs: number): Promise<{ request: IsoMessage; exchange: Exchange }> {
    return tracingOn ? traceExchange(() => this.exchangeOnLink(build, timeoutMs)) : this.exchangeOnLink(build, timeoutMs);
  }

  private async exchangeOnLink(build: (stan: string) => IsoMessage, timeoutMs: number): Promise<{ request: IsoMessage; exchange: Exchange }> {
    const link = await this.pick();
    const request = build(this.stan.next());
    if (!link) return { request, exchange: { ok: false, because: 'not-sent' } };
    const exchange = await link.exchange(request, timeoutMs);
    if (!exchange.ok && exchange.because === 'timeout') this.condemn(link, 'request-timeout');
    return { request, exchange };
  }

  close(): void {
    this.#stopped = true;
    clearInterval(this.#echoTimer);
    for (const link of this.#links) link?.close('pool-closed');
  }

  private async pick(): Promise<Link | undefined> {
    if (this.#stopped) return undefined;
    this.#echoTimer ??= setInterval(() => this.checkHealth(), this.options.echoIntervalMs).unref();
    let best = this.best();
    if (best) return best;
    await Promise.allSettled(this.#links.map((_, index) => this.connect(index)));
    best = this.best();
    return best;
  }

  private best(): Link | undefined {
    let best: Link | undefined;
    for (const link of this.#links) if (link?.usable && (!best || link.inFlight < best.inFlight)) best = link;
    // Fill the pool in the background while one connection serves.
    this.#links.forEach((link, index) => {
      if (!link?.usable) void this.connect(index).catch(() => undefined);
    });
    return best;
  }

  private connect(index: number): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#links[index]?.usable) return Promise.resolve();
    this.#connecting[index] ??= this.open(index).finally(() => {
      this.#connecting[index] = undefined;
    });
    return this.#connecting[index]!;
  }

  private async open(index: number): Promise<void> {
    const { profile, endpoint, connectTimeoutMs, onEvent } = this.options;
    const link = new Link(profile, {
      onUnmatched: (message) => onEvent?.({ type: 'unmatched-answer', mti: message.mti }),
      onClose: (reason) => this.closed(index, link, reason),
      ...(this.options.onTrace ? { onTrace: this.options.onTrace } : {}),
    });
    try {
      await link.open(endpoint, connectTimeoutMs);
    } catch (error) {
      this.#failures[index] = (this.#failures[index] ?? 0) + 1;
      onEvent?.({ type: 'connect-failed', link: index, reason: errorReason(error) });
      throw error;
    }
    const signOn = await link.exchange(this.networkMessage(profile.networkCodes.signOn), connectTimeoutMs);
    if (!signOn.ok || signOn.answer.fields[39] !== '00') {
      this.#failures[index] = (this.#failures[index] ?? 0) + 1;
      onEvent?.({ type: 'sign-on-failed', link: index, reason: signOn.ok ? `answered ${signOn.answer.fields[39] ?? 'without field 39'}` : signOn.because });
      link.close('sign-on-failed');
      throw new Error('sign-on refused');
    }
    this.#failures[index] = 0;
    this.#links[index] = link;
    onEvent?.({ type: 'connected', link: index });
  }

  private closed(index: number, link: Link, reason: CloseReason): void {
    const { onEvent } = this.options;
    if (this.#links[index] !== link) {
      // A condemned connection, already replaced in its slot, ends here.
      if (reason !== 'sign-on-failed') onEvent?.({ type: 'disconnected', link: index, reason });
      return;
    }
    this.#links[index] = undefined;
    onEvent?.({ type: 'disconnected', link: index, reason });
    if (this.#stopped) return;
    const pauseMs = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** (this.#failures[index] ?? 0));
    setTimeout(() => void this.connect(index).catch(() => undefined), pauseMs).unref();
  }

  /** Takes a connection out of its slot and opens its replacement now: the host answers, this stream does not. */
  private condemn(link: Link, reason: CondemnReason): void {
    const index = this.#links.indexOf(link);
    // The slot is freed first, so the close that may follow at once is seen as the condemned one's.
    if (index >= 0) {
      this.#links[index] = undefined;
      this.options.onEvent?.({ type: 'condemned', link: index, reason });
    }
    link.condemn();
    if (index >= 0) void this.connect(index).catch(() => undefined);
  }

  /** Echoes idle connections; condemns busy ones that have received no whole frame for an echo interval. */
  private checkHealth(): void {
    const { echoIntervalMs, connectTimeoutMs, profile, onEvent } = this.options;
    this.#links.forEach((link, index) => {
      if (!link?.usable) return;
      if (link.inFlight > 0) {
        if (link.stalledMs() > echoIntervalMs) this.condemn(link, 'no-frame-while-busy');
        return;
      }
      void link.exchange(this.networkMessage(profile.networkCodes.echo), connectTimeoutMs).then((echo) => {
        if (echo.ok) return;
        onEvent?.({ type: 'echo-failed', link: index, reason: echo.because });
        this.condemn(link, 'echo-failed');
      });
    });
  }

  private networkMessage(code: string): IsoMessage {
    return { mti: this.options.profile.mti.networkManagement, fields: { 7: transmissionFields(this.options.clock())[7], 11: this.stan.next(), 70: code } };
  }
}

/** A connection error's code (ECONNREFUSED …) or message: never anything from a message. */
function errorReason(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message : 'unknown';
}
