import type { NormalizedOutcome } from '../../connectors/connector.js';
import type { TransactionStatus } from '../../domain/transaction.js';
import { createGroupCommit, type ItemResult } from '../../storage/group-commit.js';
import type { Queryable, Storage } from '../../storage/port.js';
import { attemptRows, factsCtes, factsOf, factsParameters, FACTS_SELECT, insertAttemptsSql, type AttemptToRecord, type FactsRead, type FactsRequest, type FactsRows } from '../../storage/repositories/risk-attempts.js';
import { insertTransactions, insertTransactionsSql, outcomeRows, outcomeUpdateSql, transactionRows, type RecordedOutcome, type StoredTransaction } from '../../storage/repositories/transactions.js';
import { fanOutRows, fanOutSql, type FanOut } from '../../storage/repositories/webhooks.js';
import { endRedirectsSql, insertRedirectsSql, redirectEndRows, redirectRows, type NewRedirect, type RedirectEnd } from '../../storage/repositories/shopper-redirects.js';
import type { OperationDeps } from '../deps.js';
import { noObserver, type Observer } from '../../observability/observer.js';
import { prepareNotification } from '../webhooks/enqueue-notification.js';
import type { SerialisedView } from './payment-response.js';
import { reservationResults, reservationsCommitted, reserveChildren, type ChildReservation } from './reserve-children.js';

/** A payment's outcome and its PAYMENT notification: written together, by one statement (outbox). */
export interface SettledPayment {
  readonly outcome: RecordedOutcome;
  readonly notification: FanOut;
  /** A pending answer that sends the shopper away: its redirect, written in the same statement. */
  readonly redirect?: NewRedirect | undefined;
  /** The shopper's return that decided this outcome: its redirect ends in the same statement. */
  readonly endsRedirect?: RedirectEnd | undefined;
}

export function statusOfOutcome(kind: NormalizedOutcome['kind']): TransactionStatus {
  return kind === 'success' ? 'success' : kind === 'declined' ? 'rejected' : 'pending';
}

/**
 * What a payment's outcome writes: its row's new state, with the view the API answers, and its
 * PAYMENT notification (outbox). The notification names the transaction: its payload, the stored
 * response plus the presentation amount, is built at delivery (notification-message.ts).
 */
export function settledPayment(
  deps: Pick<OperationDeps, 'clock' | 'ids'>,
  payment: {
    readonly id: string;
    readonly entityId: string;
    readonly outcome: NormalizedOutcome;
    readonly view: SerialisedView;
    readonly schemeTransactionId: string | null;
    readonly notificationUrl?: string | undefined;
    /** UPDATED when a later outcome ends a payment its creating request answered as pending. */
    readonly action?: 'UPDATED' | undefined;
    readonly redirect?: NewRedirect | undefined;
    /** The rules that fired in the payment's risk check, kept with its outcome (operator only). */
    readonly riskEvaluation?: object | undefined;
  },
): SettledPayment {
  const { outcome } = payment;
  return {
    outcome: {
      id: payment.id,
      outcome: { status: statusOfOutcome(outcome.kind), resultCode: outcome.code, connectorReferences: outcome.resultDetails, schemeTransactionId: payment.schemeTransactionId, responseJson: payment.view.storedJson },
      at: deps.clock.now(),
      riskEvaluation: payment.riskEvaluation,
    },
    notification: prepareNotification({ entityId: payment.entityId, type: 'PAYMENT', action: payment.action, transactionId: payment.id, notificationUrl: payment.notificationUrl }, deps),
    ...(payment.redirect ? { redirect: payment.redirect } : {}),
  };
}

/**
 * What a checked payment's pending row brings to its statement: the attempt its velocity counts
 * will see, written with the row (so an attempt is counted exactly when its payment exists and
 * costs no commit of its own), and the read of the entity's lists and the counts the rules
 * decide on (the earlier attempts: the statement's own inserts are not visible to it).
 */
export interface RiskCheck {
  readonly attempt: AttemptToRecord;
  readonly read: FactsRequest;
}

/** An item of the pending group: a pending row, with its risk check if the payment is checked. */
interface PendingItem {
  readonly row: StoredTransaction;
  readonly risk?: RiskCheck | undefined;
}

/**
 * Pending rows, with the attempts and the reads of checked payments, in one statement: a
 * checked payment costs no round trip of its own. A group of unchecked payments alone keeps the
 * plain INSERT. Each checked item's result is its read.
 */
export async function writePendingGroup(db: Queryable, items: readonly PendingItem[]): Promise<readonly ItemResult<FactsRead | undefined>[]> {
  const checks = items.flatMap((i) => (i.risk ? [i.risk] : []));
  if (checks.length === 0) {
    await insertTransactions(db, items.map((i) => i.row));
    return items.map(() => ({ ok: true, value: undefined }));
  }
  const { rows } = await db.query<FactsRows>(
    `WITH payment AS (${insertTransactionsSql('$1')}), attempt AS (${insertAttemptsSql('$2')}), ${factsCtes('$3', '$4')} ${FACTS_SELECT}`,
    [transactionRows(items.map((i) => i.row)), attemptRows(checks.map((c) => c.attempt)), ...factsParameters(checks.map((c) => c.read))],
    { prepareAs: 'pending_with_risk_v3' },
  );
  const facts = factsOf(rows[0], checks.length);
  let next = 0;
  return items.map((i) => ({ ok: true, value: i.risk ? facts[next++] : undefined }));
}

/**
 * The writes every payment makes, through group commit: the pending row before the connector is
 * asked (for a capture, refund or reversal: its reservation on the parent with it), and the
 * outcome with its notification after. Concurrent payments share statements and commits, which
 * is what lets the gateway keep up with its database (docs/performance.md).
 */
export interface PaymentWrites {
  /**
   * Resolves once the pending row (with its risk attempt, if checked) is committed; with a risk
   * check, answers what the row's statement read for it.
   */
  insertPending(row: StoredTransaction, risk?: RiskCheck): Promise<FactsRead | undefined>;
  /** Resolves with the plan's result once the reservation and its pending child are committed; rejects with the plan's refusal. */
  reserve<Result>(reservation: ChildReservation<Result>): Promise<Result>;
  /** Resolves once the outcome and its notification are committed. */
  settle(payment: SettledPayment): Promise<void>;
}

/**
 * The outcomes of any number of payments and their notifications in one statement: atomic
 * without BEGIN and COMMIT, one round trip for a whole group. A transaction that is no longer
 * pending (resolved in the meantime) keeps its outcome and gets no second notification. The
 * redirects of pending answers are inserted, and those of shoppers' returns ended, by the same
 * statement (a data-modifying CTE always runs); each combination is its own prepared statement.
 */
export async function writeSettledPayments(db: Queryable, payments: readonly SettledPayment[]): Promise<void> {
  const redirects = payments.flatMap((p) => (p.redirect ? [p.redirect] : []));
  const ends = payments.flatMap((p) => (p.endsRedirect ? [p.endsRedirect] : []));
  const ctes = [`outcome AS (${outcomeUpdateSql('$1')})`];
  const parameters = [outcomeRows(payments.map((p) => p.outcome)), fanOutRows(payments.map((p) => p.notification))];
  let name = 'settle_payments';
  if (redirects.length > 0) {
    parameters.push(redirectRows(redirects));
    ctes.push(`redirect AS (${insertRedirectsSql(`$${parameters.length}`)})`);
    name += '_with_redirects';
  }
  if (ends.length > 0) {
    parameters.push(redirectEndRows(ends));
    ctes.push(`redirect_end AS (${endRedirectsSql(`$${parameters.length}`)})`);
    name += '_ending_redirects';
  }
  await db.query(`WITH ${ctes.join(', ')}, ${fanOutSql('$2', 'outcome')}`, parameters, { prepareAs: name });
}

/**
 * Which pending rows the leader holds, after their group's commit went unseen: a row is there by
 * its id, given before it was written, and its risk attempt was written by the same statement.
 * The locking read makes a replica refuse (25006), so the storage waits for the leader.
 */
export async function pendingRowsCommitted(db: Queryable, items: readonly PendingItem[]): Promise<boolean[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT t.id FROM transactions t JOIN json_array_elements_text($1::json) AS v(id) ON t.id = v.id::bpchar FOR KEY SHARE OF t`,
    [JSON.stringify(items.map((i) => i.row.id))],
  );
  const found = new Set(rows.map((r) => r.id.trim()));
  return items.map((i) => found.has(i.row.id));
}

/**
 * Which outcomes the leader holds, after their group's commit went unseen: the row has the
 * status, result code and time the outcome set. One that is not there leaves its row pending (or
 * resolved by another path, which the outcome's update, pending only, then leaves alone).
 */
export async function outcomesCommitted(db: Queryable, payments: readonly SettledPayment[]): Promise<boolean[]> {
  const outcomes = payments.map(({ outcome }) => ({ id: outcome.id, status: outcome.outcome.status, result_code: outcome.outcome.resultCode, updated_at: outcome.at }));
  const { rows } = await db.query<{ id: string }>(
    `SELECT t.id FROM transactions t JOIN json_to_recordset($1::json) AS v(id bpchar, status text, result_code text, updated_at timestamptz) ON t.id = v.id
      WHERE t.status = v.status AND t.result_code = v.result_code AND t.updated_at = v.updated_at FOR KEY SHARE OF t`,
    [JSON.stringify(outcomes)],
  );
  const found = new Set(rows.map((r) => r.id.trim()));
  return payments.map((p) => found.has(p.outcome.id));
}

/**
 * A checked payment's risk facts, read again after its pending row and attempt committed unseen:
 * the attempts up to its own, without its own, as its statement saw them (a read of the leader).
 */
export async function pendingFactsReadAgain(db: Queryable, items: readonly PendingItem[]): Promise<Array<FactsRead | undefined>> {
  const checks = items.flatMap((i) => (i.risk ? [i.risk] : []));
  if (checks.length === 0) return items.map(() => undefined);
  const { rows } = await db.query<FactsRows>(`WITH ${factsCtes('$1', '$2', true)} ${FACTS_SELECT}`, factsParameters(checks.map((c) => c.read), checks.map((c) => c.attempt)));
  const facts = factsOf(rows[0], checks.length);
  let next = 0;
  return items.map((i) => (i.risk ? facts[next++] : undefined));
}

export interface PaymentWriteSettings {
  /** Groups on their way at once, per kind of write; each holds a pooled connection. */
  readonly concurrentGroups: number;
  readonly maxGroupSize: number;
}

/**
 * One group of each kind on its way at a time: measured on PostgreSQL beside the gateway, two or
 * more groups in flight meant more, smaller commits and more database CPU per payment for less
 * throughput (docs/performance.md). 128 rows keep one statement well under a millisecond per row.
 */
export const DEFAULT_PAYMENT_WRITE_SETTINGS: PaymentWriteSettings = { concurrentGroups: 1, maxGroupSize: 128 };

export function createPaymentWrites(
  storage: Storage,
  settings: PaymentWriteSettings = DEFAULT_PAYMENT_WRITE_SETTINGS,
  observe: Pick<Observer, 'groupCommit'> = noObserver,
): PaymentWrites {
  const common = { storage, maxGroupSize: settings.maxGroupSize, maxConcurrentGroups: settings.concurrentGroups };
  // Group sizes say how much the grouping saves: 1 everywhere means one commit per write.
  const sizes = (write: 'pending' | 'settled' | 'reservation') => (size: number) => observe.groupCommit({ write, size });
  // A checked payment's answer is the counts its own statement read: committed, they are read again.
  const pendingRecovery = { committed: pendingRowsCommitted, answerFromWrite: (item: PendingItem) => item.risk !== undefined, readAnswers: pendingFactsReadAgain };
  const pending = createGroupCommit<PendingItem, FactsRead | undefined>({ ...common, name: 'pending', write: writePendingGroup, transactional: false, onGroup: sizes('pending'), recover: pendingRecovery });
  const settled = createGroupCommit<SettledPayment>({ ...common, name: 'settle', write: writeSettledPayments, transactional: false, onGroup: sizes('settled'), recover: { committed: outcomesCommitted } });
  // A reservation's answer (the child its plan made) is known from its write: committed, it is given back.
  const reservationRecovery = { committed: reservationsCommitted, answerFromWrite: () => true, readAnswers: reservationResults };
  const reservations = createGroupCommit<ChildReservation<unknown>, unknown>({ ...common, name: 'reserve', write: reserveChildren, transactional: true, onGroup: sizes('reservation'), recover: reservationRecovery });
  return {
    insertPending: (row, risk) => pending.submit({ row, risk }),
    // One group serves every kind of result: each item's result is its own plan's.
    reserve: <Result>(reservation: ChildReservation<Result>) => reservations.submit(reservation as ChildReservation<unknown>) as Promise<Result>,
    settle: (payment) => settled.submit(payment),
  };
}
