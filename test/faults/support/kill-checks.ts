/**
 * What the database must hold after a gateway process died mid-load, compared with what its
 * clients were told. "Half-written" means any of:
 *  - a payment answered with a success code that is missing, or stored with another amount,
 *    status or result code;
 *  - a row whose stored response disagrees with its own columns (id, result code), or whose
 *    status disagrees with its result code;
 *  - a parent whose captured or refunded total differs from its children that were not declined
 *    (a pending child keeps its amount reserved), or exceeds its amount;
 *  - a pending row for a request that was answered: pending is allowed only for requests whose
 *    answer never arrived, the state a crash between the connector call and the outcome write
 *    leaves for reconciliation;
 *  - a row no client asked for, or two rows for one request.
 */
import type pg from 'pg';
import { runLedgerChecks } from '../../../bench/support/ledger-checks.js';
import { SUCCESS_CODE } from './fault-setup.js';
import type { SentRequest } from './payment-load.js';

interface Row {
  id: string;
  merchant_transaction_id: string | null;
  payment_type: string;
  status: string;
  result_code: string;
  amount_minor: string;
}

export interface KillFindings {
  readonly answeredSuccesses: number;
  readonly unanswered: number;
  readonly rows: number;
  readonly pendingRows: number;
  readonly successMissingOrDifferent: readonly string[];
  readonly pendingAlthoughAnswered: readonly string[];
  readonly rowsNobodyAskedFor: readonly string[];
  readonly duplicateReferences: readonly string[];
  readonly ledger: Record<string, number>;
}

function describeRow(row: Row | undefined): string {
  return row ? `${row.payment_type} ${row.status} ${row.result_code} ${row.amount_minor}` : 'no row';
}

export async function checkAfterKill(client: pg.Client, requests: readonly SentRequest[], parentIds: readonly string[]): Promise<KillFindings> {
  const { rows } = await client.query<Row>('SELECT id, merchant_transaction_id, payment_type, status, result_code, amount_minor FROM transactions');
  const byId = new Map(rows.map((row) => [row.id, row]));
  const moneyRequests = requests.filter((r) => r.kind !== 'GET');
  const byReference = new Map(moneyRequests.map((r) => [r.reference, r]));

  const successes = moneyRequests.filter((r) => r.status === 200 && SUCCESS_CODE.test(r.code ?? ''));
  const successMissingOrDifferent = successes
    .filter((r) => {
      const row = r.id ? byId.get(r.id) : undefined;
      return !row || row.status !== 'success' || row.result_code !== r.code || Number(row.amount_minor) !== r.amountMinor || row.merchant_transaction_id !== r.reference;
    })
    .map((r) => `${r.kind} ${r.reference} answered ${r.code} ${r.amountMinor}, stored: ${describeRow(r.id ? byId.get(r.id) : undefined)}`);

  const pendingRows = rows.filter((row) => row.status === 'pending');
  const pendingAlthoughAnswered = pendingRows
    .filter((row) => {
      const request = byReference.get(row.merchant_transaction_id ?? '');
      // Answered "pending" (000.200.x) is the one answer that may leave a pending row.
      return request?.status !== undefined && !/^000\.200/.test(request.code ?? '');
    })
    .map((row) => `${row.id} (${row.merchant_transaction_id})`);

  const parents = new Set(parentIds);
  const rowsNobodyAskedFor = rows
    .filter((row) => !parents.has(row.id) && !byReference.has(row.merchant_transaction_id ?? ''))
    .map((row) => `${row.id} ${describeRow(row)}`);

  const seen = new Set<string>();
  const duplicateReferences = rows
    .map((row) => row.merchant_transaction_id)
    .filter((reference): reference is string => reference !== null && (seen.has(reference) || !seen.add(reference)));

  return {
    answeredSuccesses: successes.length,
    unanswered: moneyRequests.filter((r) => r.status === undefined).length,
    rows: rows.length,
    pendingRows: pendingRows.length,
    successMissingOrDifferent,
    pendingAlthoughAnswered,
    rowsNobodyAskedFor,
    duplicateReferences,
    ledger: await runLedgerChecks(client),
  };
}
