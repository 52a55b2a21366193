import { formatAmount } from '../money.js';

/**
 * A payment's timeline for the console: what happened to the payment and its family, in time
 * order, built from what the gateway stored. Pure: the operation loads the facts, this orders
 * and words them.
 */

export type TimelineKind = 'request' | 'risk' | 'three-d-secure' | 'redirect' | 'answer' | 'resolution' | 'notification' | 'attempt' | 'settlement' | 'schedule' | 'registration';

export interface TimelineEvent {
  readonly at: Date;
  readonly kind: TimelineKind;
  /** The family member the event belongs to, when it belongs to one. */
  readonly transactionId: string | null;
  readonly title: string;
  readonly details: ReadonlyArray<readonly [label: string, value: string]>;
}

export interface TransactionFacts {
  readonly id: string;
  readonly paymentType: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly status: string;
  readonly resultCode: string;
  readonly resultDescription: string;
  readonly createdAt: Date;
  /** The connector's details as the viewer may see them (a merchant's setting may hide some). */
  readonly resultDetails: Readonly<Record<string, string>>;
  readonly threeDSecure: Readonly<Record<string, string>> | null;
  /** Operators only: null for a merchant's people, or when no rule fired. */
  readonly risk: { readonly decision: string; readonly score: number; readonly fired: readonly string[] } | null;
}

export interface TimelineFacts {
  /** The family in its tree's order: each transaction before its children. */
  readonly transactions: readonly TransactionFacts[];
  readonly redirects: ReadonlyArray<{ readonly transactionId: string; readonly purpose: string; readonly state: string; readonly choice: string | null; readonly createdAt: Date; readonly endedAt: Date | null }>;
  readonly resolutions: ReadonlyArray<{ readonly transactionId: string; readonly attempts: number; readonly resolvedAt: Date | null; readonly resolvedBy: string | null; readonly resolvedCode: string | null; readonly reason: string | null }>;
  readonly deliveries: ReadonlyArray<{
    readonly transactionId: string; readonly notificationId: string; readonly type: string; readonly action: string | null; readonly createdAt: Date; readonly url: string;
    readonly attempts: ReadonlyArray<{ readonly attemptedAt: Date; readonly trigger: string; readonly httpStatus: number | null; readonly error: string | null; readonly latencyMs: number; readonly acknowledged: boolean }>;
  }>;
  readonly settlement: ReadonlyArray<{ readonly recordType: string; readonly status: string; readonly settlementDate: string; readonly batchId: string; readonly amountMinor: bigint; readonly currency: string; readonly matchingStatus: string; readonly reasonCode: string | null; readonly ingestedAt: Date; readonly matchedIds: readonly string[] }>;
  readonly scheduleRuns: ReadonlyArray<{ readonly transactionId: string | null; readonly fireAt: Date; readonly outcome: string; readonly resultCode: string | null; readonly ranAt: Date }>;
  readonly registrations: ReadonlyArray<{ readonly id: string; readonly createdByPayment: boolean; readonly createdAt: Date }>;
}

// Events at the same instant read in the order they happen within one request.
const ORDER: readonly TimelineKind[] = ['schedule', 'request', 'risk', 'three-d-secure', 'redirect', 'answer', 'registration', 'resolution', 'notification', 'attempt', 'settlement'];

const money = (minor: bigint, currency: string) => `${formatAmount(minor)} ${currency}`;

function transactionEvents(t: TransactionFacts, facts: TimelineFacts): TimelineEvent[] {
  const events: TimelineEvent[] = [
    { at: t.createdAt, kind: 'request', transactionId: t.id, title: `${t.paymentType} requested: ${money(t.amountMinor, t.currency)}`, details: [] },
  ];
  if (t.risk) {
    const fired = t.risk.fired.length > 0 ? t.risk.fired.join(', ') : 'none';
    events.push({ at: t.createdAt, kind: 'risk', transactionId: t.id, title: `Risk check: ${t.risk.decision}, score ${t.risk.score}`, details: [['Rules fired', fired]] });
  }
  if (t.threeDSecure) {
    events.push({ at: t.createdAt, kind: 'three-d-secure', transactionId: t.id, title: '3-D Secure authentication', details: Object.entries(t.threeDSecure) });
  }
  // The outcome's time is not stored apart from the row's: a later resolution or a shopper's
  // return dates it; otherwise the connector answered within the request.
  const resolution = facts.resolutions.find((r) => r.transactionId === t.id && r.resolvedAt);
  const returned = facts.redirects.filter((r) => r.transactionId === t.id && r.endedAt).at(-1);
  const answeredAt = resolution?.resolvedAt ?? returned?.endedAt ?? t.createdAt;
  if (t.status !== 'pending' || !resolution) {
    const title = t.status === 'pending' ? `Pending: ${t.resultCode}` : `${t.status === 'success' ? 'Approved' : 'Refused'}: ${t.resultCode}`;
    events.push({ at: answeredAt, kind: 'answer', transactionId: t.id, title, details: [['Description', t.resultDescription], ...Object.entries(t.resultDetails)] });
  }
  return events;
}

function redirectEvents(facts: TimelineFacts): TimelineEvent[] {
  return facts.redirects.flatMap((r) => {
    const what = r.purpose === 'challenge' ? '3-D Secure challenge' : "provider's page";
    const sent: TimelineEvent = { at: r.createdAt, kind: 'redirect', transactionId: r.transactionId, title: `Shopper sent to the ${what}`, details: [] };
    if (!r.endedAt) return [sent];
    const details: Array<[string, string]> = r.choice ? [['Choice', r.choice]] : [];
    return [sent, { at: r.endedAt, kind: 'redirect' as const, transactionId: r.transactionId, title: r.state === 'expired' ? 'Redirect expired: the shopper did not come back' : 'Shopper came back', details }];
  });
}

function resolutionEvents(facts: TimelineFacts): TimelineEvent[] {
  return facts.resolutions.flatMap((r) => {
    if (!r.resolvedAt) return [];
    const details: Array<[string, string]> = [['Status queries', String(r.attempts)]];
    if (r.reason) details.push(['Reason', r.reason]);
    return [{ at: r.resolvedAt, kind: 'resolution' as const, transactionId: r.transactionId, title: `Pending ended by ${r.resolvedBy ?? 'the gateway'}: ${r.resolvedCode ?? ''}`, details }];
  });
}

function deliveryEvents(facts: TimelineFacts): TimelineEvent[] {
  return facts.deliveries.flatMap((d) => [
    { at: d.createdAt, kind: 'notification' as const, transactionId: d.transactionId, title: `${d.type}${d.action ? ` ${d.action}` : ''} notification for ${d.url}`, details: [['Notification', d.notificationId]] as Array<[string, string]> },
    ...d.attempts.map((a): TimelineEvent => ({
      at: a.attemptedAt, kind: 'attempt', transactionId: d.transactionId,
      title: `Delivery ${a.acknowledged ? 'acknowledged' : 'failed'}: ${a.httpStatus === null ? a.error ?? 'no answer' : `HTTP ${a.httpStatus}`}`,
      details: [['URL', d.url], ['Trigger', a.trigger], ['Took', `${a.latencyMs} ms`]],
    })),
  ]);
}

function otherEvents(facts: TimelineFacts): TimelineEvent[] {
  const settlement = facts.settlement.map((s): TimelineEvent => ({
    at: s.ingestedAt, kind: 'settlement', transactionId: s.matchedIds[0] ?? null,
    title: `Settlement record ${s.recordType} (${s.status}), ${s.matchingStatus.toLowerCase().replace('_', ' ')}`,
    details: [['Settlement date', s.settlementDate], ['Batch', s.batchId], ['Amount', money(s.amountMinor, s.currency)], ...(s.reasonCode ? [['Reason code', s.reasonCode] as [string, string]] : [])],
  }));
  const runs = facts.scheduleRuns.map((r): TimelineEvent => ({
    at: r.ranAt, kind: 'schedule', transactionId: r.transactionId, title: `Schedule run: ${r.outcome}`,
    details: [['Fire time', r.fireAt.toISOString()], ...(r.resultCode ? [['Result', r.resultCode] as [string, string]] : [])],
  }));
  const registrations = facts.registrations.filter((r) => r.createdByPayment).map((r): TimelineEvent => ({
    at: r.createdAt, kind: 'registration', transactionId: null, title: 'Registration created by the payment', details: [['Registration', r.id]],
  }));
  return [...settlement, ...runs, ...registrations];
}

/** Every event of the family, oldest first; events of one instant in the order a request makes them. */
export function buildTimeline(facts: TimelineFacts): TimelineEvent[] {
  const events = [
    ...facts.transactions.flatMap((t) => transactionEvents(t, facts)),
    ...redirectEvents(facts),
    ...resolutionEvents(facts),
    ...deliveryEvents(facts),
    ...otherEvents(facts),
  ];
  // Within one instant: the family's order (a parent before its children), then the request's.
  const familyOrder = new Map(facts.transactions.map((t, index) => [t.id, index]));
  const memberRank = (e: TimelineEvent) => (e.transactionId === null ? facts.transactions.length : familyOrder.get(e.transactionId) ?? facts.transactions.length);
  return events
    .map((event, index) => ({ event, index, member: memberRank(event), kind: ORDER.indexOf(event.kind) }))
    .sort((a, b) => a.event.at.getTime() - b.event.at.getTime() || a.member - b.member || a.kind - b.kind || a.index - b.index)
    .map(({ event }) => event);
}
