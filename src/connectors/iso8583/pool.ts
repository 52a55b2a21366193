import { Link, type Exchange } from './link.js';
import type { IsoMessage } from './message.js';
import type { AcquirerProfile, HostEndpoint } from './profile.js';
import { StanCounter, transmissionFields } from './stan.js';

export interface PoolOptions {
  readonly profile: AcquirerProfile;
  readonly endpoint: HostEndpoint;
  /** Connections kept open to the host. */
  readonly size: number;
  readonly connectTimeoutMs: number;
  /** An idle connection is checked with an 0800 echo this often; one without answer is replaced. */
  readonly echoIntervalMs: number;
  readonly clock: () => Date;
  readonly onEvent?: (event: PoolEvent) => void;
  /** Masked hex traces of every message (trace.ts); absent: none are made. */
  readonly onTrace?: (direction: 'sent' | 'received', trace: string) => void;
}

/** What an operator wants in the log: nothing from inside a message. */
export type PoolEvent =
  | { readonly type: 'connected' | 'disconnected' | 'echo-failed' | 'sign-on-failed'; readonly link: number }
  | { readonly type: 'unmatched-answer'; readonly mti: string };

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 30_000;

/**
 * The connections to one host. Each is signed on (0800) when opened, echoed while idle, and
 * replaced when it closes, with a growing pause while the host stays unreachable. Requests go
 * to the open connection with the fewest in flight. Connections open on first use.
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

  /** Sends a request built with a fresh STAN on the least busy connection. */
  async exchange(build: (stan: string) => IsoMessage, timeoutMs: number): Promise<{ request: IsoMessage; exchange: Exchange }> {
    const link = await this.pick();
    const request = build(this.stan.next());
    if (!link) return { request, exchange: { ok: false, because: 'not-sent' } };
    return { request, exchange: await link.exchange(request, timeoutMs) };
  }

  close(): void {
    this.#stopped = true;
    clearInterval(this.#echoTimer);
    for (const link of this.#links) link?.close();
  }

  private async pick(): Promise<Link | undefined> {
    if (this.#stopped) return undefined;
    this.#echoTimer ??= setInterval(() => this.echoIdle(), this.options.echoIntervalMs).unref();
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
      onClose: () => this.closed(index, link),
      ...(this.options.onTrace ? { onTrace: this.options.onTrace } : {}),
    });
    try {
      await link.open(endpoint, connectTimeoutMs);
    } catch (error) {
      this.#failures[index] = (this.#failures[index] ?? 0) + 1;
      throw error;
    }
    const signOn = await link.exchange(this.networkMessage(profile.networkCodes.signOn), connectTimeoutMs);
    if (!signOn.ok || signOn.answer.fields[39] !== '00') {
      onEvent?.({ type: 'sign-on-failed', link: index });
      link.close();
      throw new Error('sign-on refused');
    }
    this.#failures[index] = 0;
    this.#links[index] = link;
    onEvent?.({ type: 'connected', link: index });
  }

  private closed(index: number, link: Link): void {
    if (this.#links[index] !== link) return;
    this.#links[index] = undefined;
    this.options.onEvent?.({ type: 'disconnected', link: index });
    if (this.#stopped) return;
    const pauseMs = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** (this.#failures[index] ?? 0));
    setTimeout(() => void this.connect(index).catch(() => undefined), pauseMs).unref();
  }

  private echoIdle(): void {
    this.#links.forEach((link, index) => {
      if (!link?.usable || link.inFlight > 0) return;
      void link.exchange(this.networkMessage(this.options.profile.networkCodes.echo), this.options.connectTimeoutMs).then((echo) => {
        if (echo.ok) return;
        this.options.onEvent?.({ type: 'echo-failed', link: index });
        link.close();
      });
    });
  }

  private networkMessage(code: string): IsoMessage {
    return { mti: this.options.profile.mti.networkManagement, fields: { 7: transmissionFields(this.options.clock())[7], 11: this.stan.next(), 70: code } };
  }
}
