/**
 * What a database failover under load must leave, comparing three sources: what the clients
 * were told (the load's requests), what the gateway's database holds after (through the new
 * leader), and what the acquirer host emulator's ledger says it charged.
 */
import type { Ledger } from '../../../../emulators/acquirer-host/ledger.js';
import { SUCCESS_CODE } from '../../support/fault-setup.js';
import type { SentRequest } from '../../support/payment-load.js';

export interface PaymentRow {
  readonly id: string;
  readonly merchant_transaction_id: string | null;
  readonly status: string;
  readonly result_code: string;
}

/** 900.100.300: the outcome is unknown (the commit's answer never came); 000.200.x: pending. */
export const UNCERTAIN_CODE = /^(900\.100\.300|000\.200\.)/;

export const succeeded = (r: SentRequest) => r.status === 200 && SUCCESS_CODE.test(r.code ?? '');

export interface FailoverFindings {
  readonly payments: number;
  readonly succeeded: number;
  /** Answered 2xx with an id that the database does not hold afterwards. */
  readonly acknowledgedLost: readonly string[];
  /** Charged at the acquirer (approved, not reversed) with no row at the gateway. */
  readonly chargedUnknownToGateway: readonly string[];
  /** One merchant reference charged more than once at the acquirer, or stored twice. */
  readonly duplicateCharges: readonly string[];
  /** Answered uncertain or pending, or not answered at all. */
  readonly uncertain: number;
  /** Rows still pending, or whose outcome disagrees with the acquirer's ledger. */
  readonly disagreeWithAcquirer: readonly string[];
}

/** Requests that ended in anything but a success, counted by what they got. */
export function failuresByAnswer(requests: readonly SentRequest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests.filter((r) => !succeeded(r))) {
    const key = r.error ?? `HTTP ${r.status} ${r.code ?? ''}`.trim();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export function findFailoverFindings(requests: readonly SentRequest[], rows: readonly PaymentRow[], ledger: Ledger): FailoverFindings {
  const payments = requests.filter((r) => r.kind === 'DB');
  const byId = new Map(rows.map((row) => [row.id, row]));
  const acknowledgedLost = payments
    .filter((r) => r.status !== undefined && r.status >= 200 && r.status < 300 && r.id !== undefined && !byId.has(r.id))
    .map((r) => `${r.reference} answered ${r.status} ${r.code} id ${r.id}: no row`);
  const charged = ledger.entries().filter((e) => e.kind === 'purchase' && ledger.charged(e.gatewayTransactionId));
  const chargedUnknownToGateway = charged.filter((e) => !byId.has(e.gatewayTransactionId)).map((e) => `${e.gatewayTransactionId} (${e.amountMinor} charged)`);

  const chargesByReference = new Map<string, number>();
  for (const e of charged) {
    const reference = byId.get(e.gatewayTransactionId)?.merchant_transaction_id;
    if (reference) chargesByReference.set(reference, (chargesByReference.get(reference) ?? 0) + 1);
  }
  const rowsByReference = new Map<string, number>();
  for (const row of rows) if (row.merchant_transaction_id) rowsByReference.set(row.merchant_transaction_id, (rowsByReference.get(row.merchant_transaction_id) ?? 0) + 1);
  const duplicateCharges = [
    ...[...chargesByReference].filter(([, n]) => n > 1).map(([reference, n]) => `${reference} charged ${n} times`),
    ...[...rowsByReference].filter(([, n]) => n > 1).map(([reference, n]) => `${reference} stored ${n} times`),
  ];

  const disagreeWithAcquirer = rows
    .filter((row) => row.status === 'pending' || SUCCESS_CODE.test(row.result_code) !== ledger.charged(row.id))
    .map((row) => `${row.id} ${row.merchant_transaction_id} ${row.status} ${row.result_code}, acquirer: ${ledger.charged(row.id) ? 'charged' : 'not charged'}`);
  return {
    payments: payments.length,
    succeeded: payments.filter(succeeded).length,
    acknowledgedLost,
    chargedUnknownToGateway,
    duplicateCharges,
    uncertain: payments.filter((r) => r.status === undefined || UNCERTAIN_CODE.test(r.code ?? '')).length,
    disagreeWithAcquirer,
  };
}

/** The gateways' warnings and errors (JSON log lines), counted by message and error: what the lead reads when a check fails. */
export function logSummary(output: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of output.split('\n')) {
    let entry: { level?: number; msg?: string; code?: string; err?: { message?: string } };
    try { entry = JSON.parse(line); } catch { continue; }
    if ((entry.level ?? 0) < 40) continue;
    const key = `${entry.msg ?? ''}${entry.code ? ` ${entry.code}` : ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
