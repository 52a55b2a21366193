/**
 * A steady load of payments for the fault tests: workers send DB payments (and refunds of given
 * parents, and GETs) in a loop through fetch, and remember every request and what became of it,
 * so that the test can compare what the clients were told with what the database holds.
 */
export interface Merchant {
  readonly entityId: string;
  readonly accessToken: string;
}

export type LoadKind = 'DB' | 'RF' | 'GET';

export interface SentRequest {
  readonly kind: LoadKind;
  /** merchantTransactionId: finds the row even when the request got no answer. */
  readonly reference: string;
  readonly amountMinor: number;
  readonly parentId?: string;
  readonly startedMs: number;
  ms?: number;
  status?: number;
  code?: string;
  id?: string;
  /** Why no answer came: the connection failed or the client gave up. */
  error?: string;
  /** The request as sent, to send it again (with its Idempotency-Key, when the load uses keys). */
  readonly replay?: { readonly path: string; readonly init: RequestInit };
}

export interface LoadOptions {
  readonly url: string;
  readonly merchant: Merchant;
  readonly workers: number;
  /** Parents that refunds take 1.00 from; without parents only DBs (and GETs) are sent. */
  readonly refundParents?: readonly string[];
  /** Share of requests that are GETs of a payment created earlier. */
  readonly getShare?: number;
  /** The client gives up after this long and records the request as unanswered. */
  readonly clientTimeoutMs: number;
  /** Each payment and refund carries an Idempotency-Key (its reference), as a careful client's would. */
  readonly idempotencyKeys?: boolean;
  /** Added to every payment (e.g. testMode=EXTERNAL to pay through the acquirer host emulator). */
  readonly paymentFields?: Readonly<Record<string, string>>;
  /** Starts every merchantTransactionId: two loads in one process need different ones. */
  readonly referencePrefix?: string;
}

export interface RunningLoad {
  readonly sent: readonly SentRequest[];
  /** Stops sending; resolves once every request in flight has ended. */
  stop(): Promise<readonly SentRequest[]>;
}

const CARD = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' };
/** Ordinary amounts the simulator approves: 10.00 … 49.00 (none of its special rows). */
const amountMinorOf = (n: number) => (10 + (n % 40)) * 100;
const asAmount = (minor: number) => (minor / 100).toFixed(2);

function requestFor(options: LoadOptions, n: number, known: readonly string[]): { sent: SentRequest; path: string; init: RequestInit } {
  const { merchant } = options;
  const startedMs = performance.now();
  const reference = `${options.referencePrefix ?? 'fault'}-${process.pid}-${n}`;
  const auth = { authorization: `Bearer ${merchant.accessToken}` };
  const form = { ...auth, 'content-type': 'application/x-www-form-urlencoded', ...(options.idempotencyKeys ? { 'idempotency-key': reference } : {}) };
  const roll = (n * 7919) % 100;
  if (known.length > 0 && roll < (options.getShare ?? 0) * 100) {
    const id = known[n % known.length]!;
    return { sent: { kind: 'GET', reference, amountMinor: 0, startedMs }, path: `/v1/payments/${id}?entityId=${merchant.entityId}`, init: { headers: auth } };
  }
  const parents = options.refundParents ?? [];
  if (parents.length > 0 && roll >= 70) {
    const parentId = parents[n % parents.length]!;
    const body = new URLSearchParams({ entityId: merchant.entityId, paymentType: 'RF', amount: '1.00', currency: 'EUR', merchantTransactionId: reference });
    const init = { method: 'POST', headers: form, body };
    return { sent: { kind: 'RF', reference, amountMinor: 100, parentId, startedMs, replay: { path: `/v1/payments/${parentId}`, init } }, path: `/v1/payments/${parentId}`, init };
  }
  const amountMinor = amountMinorOf(n);
  const body = new URLSearchParams({ entityId: merchant.entityId, paymentType: 'DB', amount: asAmount(amountMinor), currency: 'EUR', merchantTransactionId: reference, ...CARD, ...options.paymentFields });
  const init = { method: 'POST', headers: form, body };
  return { sent: { kind: 'DB', reference, amountMinor, startedMs, replay: { path: '/v1/payments', init } }, path: '/v1/payments', init };
}

async function send(options: LoadOptions, sent: SentRequest, path: string, init: RequestInit): Promise<void> {
  try {
    const response = await fetch(`${options.url}${path}`, { ...init, signal: AbortSignal.timeout(options.clientTimeoutMs) });
    const body = (await response.json()) as { id?: string; result?: { code?: string } };
    sent.status = response.status;
    sent.code = body.result?.code;
    sent.id = body.id;
  } catch (error) {
    sent.error = (error as Error).name === 'TimeoutError' ? 'client timeout' : `${(error as Error).message}: ${String((error as { cause?: unknown }).cause ?? '')}`;
  } finally {
    sent.ms = performance.now() - sent.startedMs;
  }
}

export function startLoad(options: LoadOptions): RunningLoad {
  const sent: SentRequest[] = [];
  const known: string[] = [];
  let stopped = false;
  let counter = 0;
  const worker = async () => {
    while (!stopped) {
      const request = requestFor(options, counter++, known);
      sent.push(request.sent);
      await send(options, request.sent, request.path, request.init);
      if (request.sent.kind === 'DB' && request.sent.status === 200 && request.sent.id && known.length < 1_000) known.push(request.sent.id);
      // A refused connection fails at once; do not spin while the gateway is down.
      if (request.sent.error) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const running = Promise.all(Array.from({ length: options.workers }, worker));
  return {
    sent,
    async stop() {
      stopped = true;
      await running;
      return sent;
    },
  };
}

export const answered = (requests: readonly SentRequest[]) => requests.filter((r) => r.status !== undefined);

export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
