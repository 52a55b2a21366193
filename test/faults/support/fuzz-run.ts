/**
 * Drives a fuzz run: `concurrency` workers, each with its own keep-alive connection and its own
 * seeded random source, share a budget of requests and record every answer that is a server
 * error, a time-out, or a connection closed without an answer to a well-framed request.
 */
import { CVV_MARKERS } from './fuzz-endpoints.js';
import { fuzzRequest, type FuzzContext, type FuzzRequest } from './fuzz-requests.js';
import { Random } from './fuzz-values.js';
import { RawHttpConnection, type RawOutcome } from './raw-http.js';

export interface FuzzOptions {
  readonly url: string;
  readonly context: FuzzContext;
  readonly total: number;
  readonly concurrency: number;
  readonly seed: number;
  readonly timeoutMs: number;
  /** No new request after this long; the report says how many were sent. */
  readonly maxDurationMs?: number;
}

export interface FuzzProblem {
  readonly problem: string;
  readonly kind: string;
  readonly request: string;
  readonly answer?: string;
}

export interface FuzzReport {
  readonly sent: number;
  readonly durationSeconds: number;
  readonly statuses: Record<string, number>;
  readonly kinds: Record<string, number>;
  /** Broken framing the server answered by closing the connection: allowed. */
  readonly closedOnBrokenFraming: number;
  readonly problems: readonly FuzzProblem[];
  readonly problemCount: number;
  /** Problems counted by sort and kind of request ("HTTP 500 | endpoint POST /admin/entities"). */
  readonly problemsByKind: Record<string, number>;
}

const KEPT_PROBLEMS = 200;
const KEPT_PER_KIND = 2;
const KEPT_PAYMENT_IDS = 500;
const KEPT_OTHER_IDS = 200;

/**
 * A secret of the request the answer gives back: a card number (as digits, whatever separators
 * it was sent or echoed with) or a CVV marker sent only as card.cvv.
 */
export function reflectedSecret(request: FuzzRequest, answer: string): { what: string; at: number } | undefined {
  const requestText = request.bytes.toString('latin1');
  for (const secret of request.secrets) {
    if (CVV_MARKERS.includes(secret)) {
      const sentOnce = requestText.split(secret).length === 2;
      const at = sentOnce ? answer.search(new RegExp(`(?<![0-9A-Za-z])${secret}(?![0-9A-Za-z])`)) : -1;
      if (at >= 0) return { what: `the CVV ${secret} (sent as card.cvv)`, at };
    } else {
      // Digits with separators between them, as sent or echoed: 4200 0000…, 4200-0000…, 4200%200000…
      const spaced = secret.split('').join('(?:%20|%2[dD]|\\\\u0020|[ +-])*');
      const at = answer.search(new RegExp(spaced));
      if (at >= 0) return { what: `the card number ${secret.slice(0, 6)}…${secret.slice(-4)}`, at };
    }
  }
  return undefined;
}

/** The answer around where the secret was found, its digits masked, for the report. */
function excerpt(answer: string, at: number): string {
  const around = answer.slice(Math.max(0, at - 120), at + 60).replace(/\d/g, (digit, offset: number) => (offset + Math.max(0, at - 120) >= at + 6 ? '*' : digit));
  return JSON.stringify(around);
}

const ID_OF = /"id":"([0-9a-f]{32})"/;

function show(bytes: Buffer, limit = 300): string {
  return JSON.stringify(bytes.subarray(0, limit).toString('latin1'));
}

class FuzzTally {
  sent = 0;
  closedOnBrokenFraming = 0;
  problemCount = 0;
  readonly statuses: Record<string, number> = {};
  readonly kinds: Record<string, number> = {};
  readonly problems: FuzzProblem[] = [];

  readonly #keptOf = new Map<string, number>();
  readonly problemsByKind: Record<string, number> = {};

  /** Up to KEPT_PER_KIND examples of each problem on each kind of request, so one does not hide the others. */
  problem(problem: string, request: FuzzRequest, answer?: string): void {
    this.problemCount += 1;
    const key = `${problem.replace(/…\d+/, '…').replace(/\d+ ms/, 'n ms')} | ${request.kind}`;
    this.problemsByKind[key] = (this.problemsByKind[key] ?? 0) + 1;
    const kept = this.#keptOf.get(key) ?? 0;
    this.#keptOf.set(key, kept + 1);
    if (kept < KEPT_PER_KIND && this.problems.length < KEPT_PROBLEMS) this.problems.push({ problem, kind: request.kind, request: show(request.bytes), ...(answer ? { answer } : {}) });
  }

  record(request: FuzzRequest, outcome: RawOutcome, context: FuzzContext): void {
    this.kinds[request.kind] = (this.kinds[request.kind] ?? 0) + 1;
    if (outcome.kind === 'timeout') return this.problem(`no answer within ${Math.round(outcome.ms)} ms`, request);
    if (outcome.kind === 'closed') {
      if (request.wellFramed) return this.problem('connection closed without an answer', request);
      this.closedOnBrokenFraming += 1;
      return;
    }
    this.statuses[outcome.status] = (this.statuses[outcome.status] ?? 0) + 1;
    if (outcome.status >= 500 || outcome.status < 100) return this.problem(`HTTP ${outcome.status}`, request, show(outcome.body));
    const answer = `${outcome.head}${outcome.body.toString('latin1')}`;
    const secret = reflectedSecret(request, answer);
    if (secret) return this.problem(`the answer holds ${secret.what}`, request, excerpt(answer, secret.at));
    if (outcome.status === 200 || outcome.status === 201) this.keepIds(request, outcome.body.toString(), context);
  }

  /** Ids of what the run created, for the requests that refer to them. */
  keepIds(request: FuzzRequest, body: string, context: FuzzContext): void {
    const webhookId = /"webhookId":"([0-9a-f]{32})"/.exec(body)?.[1];
    if (request.kind === 'valid webhook' && webhookId && context.webhookIds.length < KEPT_OTHER_IDS) context.webhookIds.push(webhookId);
    const id = ID_OF.exec(body)?.[1];
    if (!id) return;
    if (request.kind === 'valid payment' && context.paymentIds.length < KEPT_PAYMENT_IDS) context.paymentIds.push(id);
    if (request.kind === 'valid registration' && context.registrationIds.length < KEPT_OTHER_IDS) {
      const registrationId = /"registrationId":"([0-9a-f]{32})"/.exec(body)?.[1] ?? id;
      context.registrationIds.push(registrationId);
    }
  }
}

async function sendOnce(connection: RawHttpConnection, request: FuzzRequest): Promise<RawOutcome> {
  const options = { isHead: request.isHead, closeAfter: !request.wellFramed };
  const outcome = await connection.send(request.bytes, options);
  // A keep-alive connection the server closed just as we wrote is not the request's fault: retry once.
  if (outcome.kind === 'closed' && request.wellFramed) return connection.send(request.bytes, options);
  return outcome;
}

async function worker(index: number, options: FuzzOptions, tally: FuzzTally, budget: { left: number; until: number }): Promise<void> {
  const { hostname, port } = new URL(options.url);
  const random = new Random(options.seed * 1_000 + index);
  const connection = new RawHttpConnection(hostname, Number(port), options.timeoutMs);
  try {
    while (budget.left > 0 && performance.now() < budget.until) {
      budget.left -= 1;
      const request = fuzzRequest(random, options.context, `${hostname}:${port}`);
      tally.sent += 1;
      try {
        tally.record(request, await sendOnce(connection, request), options.context);
      } catch (error) {
        tally.problem(`could not connect: ${(error as Error).message}`, request);
        connection.close();
      }
    }
  } finally {
    connection.close();
  }
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const tally = new FuzzTally();
  const started = performance.now();
  const budget = { left: options.total, until: started + (options.maxDurationMs ?? Number.POSITIVE_INFINITY) };
  await Promise.all(Array.from({ length: options.concurrency }, (_, i) => worker(i, options, tally, budget)));
  return {
    sent: tally.sent,
    durationSeconds: Math.round((performance.now() - started) / 100) / 10,
    statuses: tally.statuses,
    kinds: tally.kinds,
    closedOnBrokenFraming: tally.closedOnBrokenFraming,
    problems: tally.problems,
    problemCount: tally.problemCount,
    problemsByKind: tally.problemsByKind,
  };
}
