import type { Clock } from '../../domain/ids.js';
import { readMessage } from '../emv3ds/codec.js';
import type { PReqMessage, PResMessage } from '../emv3ds/types.js';
import type { PoolLogger } from '../iso8583/pool-log.js';
import { decideForCard, rangesOfPRes, type KnownRange, type RangeDecision } from './card-ranges.js';

/**
 * The directory's card ranges, held in memory by each gateway process: asked for with a PReq at
 * start and again once they are older than the refresh interval (EMV 3DS asks a 3DS server to
 * refresh at least every 24 hours, at most once an hour is usual). A payment never waits for
 * more than one PReq at a time: concurrent lookups share the one in flight. Without a PRes (the
 * DS unreachable, an Erro, a malformed PRes) the ranges are unknown: `decide` answers undefined,
 * the connector falls back to the configured version and sends the AReq, and the PReq is retried
 * after RETRY_AFTER_FAILURE_MS rather than for every payment.
 */

export interface CardRangeCacheDeps {
  readonly preqUrl: string;
  readonly refreshMs: number;
  readonly timeoutMs: number;
  readonly serverReferenceNumber: string;
  readonly clock: Clock;
  readonly newTransId: () => string;
  readonly logger?: PoolLogger | undefined;
  readonly fetch?: typeof fetch | undefined;
}

/** A failed PReq is asked again after this long (or the refresh interval, if shorter). */
export const RETRY_AFTER_FAILURE_MS = 60_000;

/** The PReq's version: the lowest both ends speak, so any DS of EMV 3DS 2.2 understands it. */
const PREQ_VERSION = '2.2.0';

export class CardRangeCache {
  readonly #deps: CardRangeCacheDeps;
  #ranges: readonly KnownRange[] | undefined;
  /** When the next PReq is due (epoch ms); 0: at once. */
  #dueAt = 0;
  #inFlight: Promise<void> | undefined;

  constructor(deps: CardRangeCacheDeps) {
    this.#deps = deps;
  }

  /**
   * Asks for the ranges now (at start), without waiting; a payment that comes first waits for this
   * PReq. Its failure does not hold the next PReq back a minute: at start the process may be busy
   * (migrations) past the PReq's timeout, so the first payment asks again.
   */
  warm(): void {
    void this.#refreshIfDue().then(() => {
      if (!this.#ranges) this.#dueAt = 0;
    });
  }

  /** What the ranges decide for a card; undefined where they are unknown. */
  async decide(pan: string): Promise<RangeDecision | undefined> {
    await this.#refreshIfDue();
    return this.#ranges ? decideForCard(this.#ranges, pan) : undefined;
  }

  #refreshIfDue(): Promise<void> {
    if (this.#inFlight) return this.#inFlight;
    if (this.#deps.clock.now().getTime() < this.#dueAt) return Promise.resolve();
    this.#inFlight = this.#refresh().finally(() => { this.#inFlight = undefined; });
    return this.#inFlight;
  }

  async #refresh(): Promise<void> {
    const transId = this.#deps.newTransId();
    const answer = await this.#send(transId);
    const now = this.#deps.clock.now().getTime();
    if (typeof answer === 'string') {
      // Ranges already known stay in use: a DS that is down for a while does not unenrol every card.
      this.#dueAt = now + Math.min(RETRY_AFTER_FAILURE_MS, this.#deps.refreshMs);
      this.#deps.logger?.warn({ threeDSServerTransID: transId, reason: answer, rangesKnown: this.#ranges !== undefined }, '3-D Secure directory gave no card ranges (PReq): the AReq version falls back to the setting');
      return;
    }
    this.#ranges = rangesOfPRes(answer);
    this.#dueAt = now + this.#deps.refreshMs;
    this.#deps.logger?.info({ threeDSServerTransID: transId, serialNum: answer.serialNum, ranges: this.#ranges.length }, '3-D Secure directory card ranges loaded (PRes)');
  }

  async #send(transId: string): Promise<PResMessage | string> {
    const preq: PReqMessage = { messageType: 'PReq', messageVersion: PREQ_VERSION, threeDSServerTransID: transId, threeDSServerRefNumber: this.#deps.serverReferenceNumber };
    let text: string;
    try {
      const response = await (this.#deps.fetch ?? fetch)(this.#deps.preqUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' },
        body: JSON.stringify(preq),
        redirect: 'error',
        signal: AbortSignal.timeout(this.#deps.timeoutMs),
      });
      if (!response.ok) return `http-${response.status}`;
      text = await response.text();
    } catch (error) {
      return (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable';
    }
    const read = readMessage(text);
    if (!read.ok) return `malformed-${read.error.code}`;
    const message = read.message;
    if (message.messageType === 'Erro') return `erro-${message.errorCode}`;
    if (message.messageType !== 'PRes') return 'malformed-101';
    if (message.threeDSServerTransID !== transId) return 'foreign';
    return message;
  }
}
