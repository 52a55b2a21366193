/**
 * Drives a fuzz run: `concurrency` workers, each with its own keep-alive connection and its own
 * seeded random source, share a budget of requests and record every answer that is a server
 * error, a time-out, or a connection closed without an answer to a well-framed request.
 */
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
}

const KEPT_PROBLEMS = 20;
const KEPT_PAYMENT_IDS = 500;

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

  problem(problem: string, request: FuzzRequest, answer?: string): void {
    this.problemCount += 1;
    if (this.problems.length < KEPT_PROBLEMS) this.problems.push({ problem, kind: request.kind, request: show(request.bytes), ...(answer ? { answer } : {}) });
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
    if (request.kind === 'valid payment' && outcome.status === 200 && context.paymentIds.length < KEPT_PAYMENT_IDS) {
      const id = /"id":"([0-9a-f]{32})"/.exec(outcome.body.toString())?.[1];
      if (id) context.paymentIds.push(id);
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

async function worker(index: number, options: FuzzOptions, tally: FuzzTally, budget: { left: number }): Promise<void> {
  const { hostname, port } = new URL(options.url);
  const random = new Random(options.seed * 1_000 + index);
  const connection = new RawHttpConnection(hostname, Number(port), options.timeoutMs);
  try {
    while (budget.left > 0) {
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
  const budget = { left: options.total };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, (_, i) => worker(i, options, tally, budget)));
  return {
    sent: tally.sent,
    durationSeconds: Math.round((performance.now() - started) / 100) / 10,
    statuses: tally.statuses,
    kinds: tally.kinds,
    closedOnBrokenFraming: tally.closedOnBrokenFraming,
    problems: tally.problems,
    problemCount: tally.problemCount,
  };
}
