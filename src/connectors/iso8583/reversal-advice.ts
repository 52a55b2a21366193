import type { AdviceOriginal } from './messages.js';

/** A reversal advice still to be acknowledged: the durable queue keeps it (a job row) until the host says 0430. */
export interface PendingAdvice {
  readonly connectorId: string;
  readonly original: AdviceOriginal;
}

/** Where the connector leaves an advice to be sent until acknowledged (src/jobs/send-reversal-advice.ts). */
export interface ReversalAdviceQueue {
  enqueue(advice: PendingAdvice): Promise<void>;
}

/** The answer of one attempt: acknowledged, or to be tried again. */
export type AdviceResult = 'acknowledged' | 'unanswered';
