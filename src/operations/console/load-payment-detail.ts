import type { Visibility } from '../../domain/access/actor.js';
import { buildTimeline, type TimelineEvent, type TransactionFacts } from '../../domain/console/payment-timeline.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { withoutConnectorDetails } from '../../domain/responses/connector-details.js';
import { resultCodes } from '../../results/catalogue.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { Queryable } from '../../storage/port.js';
import { findFamilyRootId, listFamily, merchantOfEntity, type FamilyMember } from '../../storage/repositories/console/payment-family.js';
import {
  findScheduleOf, listDeliveriesOf, listPendingChecksOf, listRedirectsOf, listRegistrationsOf, listSettlementRecordsOf,
  type DeliveryFact, type RegistrationFact, type ScheduleFact, type SettlementFact,
} from '../../storage/repositories/console/payment-events.js';
import { findShowConnectorDetails } from '../../storage/repositories/entity-settings.js';
import { findTransaction, findTransactionById, type StoredTransaction } from '../../storage/repositories/transactions.js';
import type { OperationDeps } from '../deps.js';

/** One transaction as the console shows it: card data only as BIN and last four (and the holder). */
export interface PaymentSummary {
  readonly id: string;
  readonly parentId: string | null;
  readonly entityId: string;
  readonly paymentType: string;
  readonly status: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly capturedMinor: bigint;
  readonly refundedMinor: bigint;
  readonly reversed: boolean;
  readonly resultCode: string;
  readonly resultDescription: string;
  readonly brand: string | null;
  readonly bin: string | null;
  readonly last4: string | null;
  readonly holder: string | null;
  readonly merchantTransactionId: string | null;
  readonly shortId: string;
  readonly connectorId: string;
  readonly createdAt: Date;
}

export interface FamilyNode {
  readonly summary: PaymentSummary;
  readonly children: readonly FamilyNode[];
}

export interface PaymentDetail {
  /** The transaction asked for. */
  readonly payment: PaymentSummary;
  readonly merchantId: string;
  /** The whole family from its first transaction (PA or DB) down. */
  readonly family: FamilyNode;
  readonly timeline: readonly TimelineEvent[];
  readonly deliveries: readonly DeliveryFact[];
  readonly settlement: readonly SettlementFact[];
  readonly schedule: ScheduleFact | null;
  readonly registrations: readonly RegistrationFact[];
}

/** The same answer for a missing id and for another merchant's payment: nothing says it exists. */
export function paymentNotFound(): GatewayError {
  return new GatewayError('700.400.580', { httpStatus: 404 });
}

/** The catalogue's description; a code the catalogue lacks (an old row) is shown as it is. */
export function describeResult(code: string): string {
  return resultCodes.get(code)?.description ?? code;
}

/** The transaction with that id if the person may see it (an operator every one, a merchant's people their merchant's and channels'). */
export async function findVisibleTransaction(db: Queryable, visibility: Visibility, id: string): Promise<StoredTransaction | undefined> {
  if (!ENTITY_ID_PATTERN.test(id)) return undefined;
  return visibility.kind === 'all' ? findTransactionById(db, id) : findTransaction(db, visibility.merchantId, id);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function summaryOf(t: StoredTransaction): PaymentSummary {
  const card = (t.response['card'] ?? {}) as Record<string, unknown>;
  return {
    id: t.id, parentId: t.parentId, entityId: t.entityId, paymentType: t.paymentType, status: t.status, amountMinor: t.amountMinor, currency: t.currency,
    capturedMinor: t.capturedMinor, refundedMinor: t.refundedMinor, reversed: t.reversedAt !== null, resultCode: t.resultCode,
    resultDescription: describeResult(t.resultCode), brand: t.paymentBrand, bin: text(card['bin']), last4: text(card['last4Digits']), holder: text(card['holder']),
    merchantTransactionId: t.merchantTransactionId, shortId: t.shortId, connectorId: t.connectorId, createdAt: t.createdAt,
  };
}

function treeOf(members: readonly FamilyMember[], rootId: string): FamilyNode {
  const summaries = members.map((m) => summaryOf(m.transaction));
  const build = (summary: PaymentSummary, depth: number): FamilyNode => ({
    summary,
    children: depth > 8 ? [] : summaries.filter((s) => s.parentId === summary.id).map((s) => build(s, depth + 1)),
  });
  return build(summaries.find((s) => s.id === rootId) ?? summaries[0]!, 0);
}

/** The family's ids, each before its children (the tree read top-down). */
function treeOrder(node: FamilyNode): string[] {
  return [node.summary.id, ...node.children.flatMap(treeOrder)];
}

function stringRecord(value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function firedRules(fired: unknown): string[] {
  if (!Array.isArray(fired)) return [];
  return fired.map((r: { rule?: unknown; action?: unknown; points?: unknown }) => `${String(r.rule)} (${String(r.action)}, ${String(r.points)} points)`);
}

/** The facts of one member as this viewer may see them: risk for operators only, connector details by the merchant's setting. */
function factsOf(member: FamilyMember, viewer: { operator: boolean; connectorDetails: boolean }): TransactionFacts {
  const t = member.transaction;
  const response = viewer.connectorDetails ? t.response : withoutConnectorDetails(t.response);
  const risk = viewer.operator && member.riskEvaluation
    ? { decision: member.riskEvaluation.decision, score: member.riskEvaluation.score, fired: firedRules(member.riskEvaluation.fired) }
    : null;
  const threeDSecure = stringRecord(t.response['threeDSecure']);
  return {
    id: t.id, paymentType: t.paymentType, amountMinor: t.amountMinor, currency: t.currency, status: t.status, resultCode: t.resultCode,
    resultDescription: describeResult(t.resultCode), createdAt: t.createdAt, resultDetails: stringRecord(response['resultDetails']),
    threeDSecure: Object.keys(threeDSecure).length > 0 ? threeDSecure : null, risk,
  };
}

/**
 * A payment with its whole family, the timeline of what happened to it, its notifications with
 * every delivery attempt, its settlement records and the schedule behind it. A merchant's person
 * asking for another merchant's payment gets the answer a missing id gets.
 */
export async function loadPaymentDetail(deps: Pick<OperationDeps, 'storage'>, input: { readonly transactionId: string; readonly visibility: Visibility }): Promise<PaymentDetail> {
  const db = deps.storage;
  const asked = await findVisibleTransaction(db, input.visibility, input.transactionId);
  if (!asked) throw paymentNotFound();
  const rootId = (await findFamilyRootId(db, asked.id)) ?? asked.id;
  const members = await listFamily(db, rootId);
  if (!members.some((m) => m.transaction.id === asked.id)) members.push({ transaction: asked, riskEvaluation: null });
  const ids = members.map((m) => m.transaction.id);
  const merchantId = (await merchantOfEntity(db, asked.entityId)) ?? asked.entityId;
  const registrationIds = [...new Set(members.map((m) => text(m.transaction.response['registrationId'])).filter((id): id is string => id !== null))];
  const [redirects, deliveries, resolutions, settlement, schedule, registrations, connectorDetails] = await Promise.all([
    listRedirectsOf(db, ids), listDeliveriesOf(db, ids), listPendingChecksOf(db, ids),
    listSettlementRecordsOf(db, merchantId, ids), findScheduleOf(db, ids),
    listRegistrationsOf(db, registrationIds, ids), findShowConnectorDetails(db, asked.entityId),
  ]);
  const viewer = { operator: input.visibility.kind === 'all', connectorDetails: input.visibility.kind === 'all' || connectorDetails !== false };
  const scheduleRuns = schedule ? schedule.runs.filter((r) => r.transactionId !== null && ids.includes(r.transactionId)) : [];
  const family = treeOf(members, rootId);
  const byId = new Map(members.map((m) => [m.transaction.id, m]));
  const timeline = buildTimeline({
    transactions: treeOrder(family).map((id) => factsOf(byId.get(id)!, viewer)), redirects, resolutions, deliveries, settlement, scheduleRuns, registrations,
  });
  return { payment: summaryOf(asked), merchantId, family, timeline, deliveries, settlement, schedule: schedule ?? null, registrations };
}
