import { outcomeGroupOf, type OutcomeGroup } from '../outcome-group.js';

/**
 * The overview's figures from the period's rollup cells (storage/repositories/overview-rollup.ts):
 * pure arithmetic over counts PostgreSQL summed. Payments are PA and DB; a payment is approved when
 * its status is success and declined when rejected (pending ones are neither); refunds are RF and
 * chargebacks CB that succeeded.
 */
export interface Cell {
  readonly entityId: string;
  readonly paymentType: string;
  readonly currency: string;
  readonly status: string;
  readonly dimension: 'all' | 'brand' | 'connector' | 'result';
  readonly value: string;
  readonly count: number;
  readonly amountMinor: bigint;
}

export interface CurrencyFigures {
  readonly currency: string;
  readonly payments: number;
  readonly approved: number;
  readonly approvedMinor: bigint;
  readonly refunds: number;
  readonly refundedMinor: bigint;
  readonly chargebacks: number;
  readonly chargebackMinor: bigint;
}

/** Payments of one brand, channel, connector or merchant: how many were decided, how many declined. */
export interface DeclineRow {
  readonly key: string;
  readonly decided: number;
  readonly declined: number;
  /** declined / decided; null when nothing was decided. */
  readonly rate: number | null;
}

export interface ThreeDSecureFigures {
  readonly attempted: number;
  readonly frictionless: number;
  readonly challenge: number;
  readonly failed: number;
}

export interface OverviewFigures {
  readonly byCurrency: readonly CurrencyFigures[];
  readonly approved: number;
  readonly declined: number;
  readonly approvalRate: number | null;
  readonly declinesByGroup: readonly { readonly group: OutcomeGroup; readonly count: number }[];
  readonly byBrand: readonly DeclineRow[];
  readonly byChannel: readonly DeclineRow[];
  readonly byConnector: readonly DeclineRow[];
  readonly threeDSecure: ThreeDSecureFigures;
  readonly chargebacks: number;
  /** Chargebacks per approved payment of the period. */
  readonly chargebackRatio: number | null;
}

const isPayment = (cell: Cell): boolean => cell.paymentType === 'PA' || cell.paymentType === 'DB';
const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

function currencyFigures(cells: readonly Cell[]): CurrencyFigures[] {
  const rows = new Map<string, { -readonly [K in keyof CurrencyFigures]: CurrencyFigures[K] }>();
  for (const cell of cells) {
    if (cell.dimension !== 'all') continue;
    const row = rows.get(cell.currency) ?? { currency: cell.currency, payments: 0, approved: 0, approvedMinor: 0n, refunds: 0, refundedMinor: 0n, chargebacks: 0, chargebackMinor: 0n };
    rows.set(cell.currency, row);
    if (isPayment(cell)) {
      row.payments += cell.count;
      if (cell.status === 'success') { row.approved += cell.count; row.approvedMinor += cell.amountMinor; }
    } else if (cell.status === 'success' && cell.paymentType === 'RF') {
      row.refunds += cell.count; row.refundedMinor += cell.amountMinor;
    } else if (cell.status === 'success' && cell.paymentType === 'CB') {
      row.chargebacks += cell.count; row.chargebackMinor += cell.amountMinor;
    }
  }
  return [...rows.values()].filter((row) => row.payments + row.refunds + row.chargebacks > 0).sort((a, b) => b.payments - a.payments || a.currency.localeCompare(b.currency));
}

/** Decided and declined payments per key of the cells of one dimension, most declines first. */
export function declineRows(cells: readonly Cell[], dimension: Cell['dimension'], keyOf: (cell: Cell) => string): DeclineRow[] {
  const rows = new Map<string, { decided: number; declined: number }>();
  for (const cell of cells) {
    if (cell.dimension !== dimension || !isPayment(cell) || cell.status === 'pending') continue;
    const key = keyOf(cell);
    const row = rows.get(key) ?? { decided: 0, declined: 0 };
    rows.set(key, row);
    row.decided += cell.count;
    if (cell.status === 'rejected') row.declined += cell.count;
  }
  return [...rows.entries()]
    .map(([key, row]) => ({ key, ...row, rate: ratio(row.declined, row.decided) }))
    .sort((a, b) => b.declined - a.declined || b.decided - a.decided || a.key.localeCompare(b.key));
}

/** A 'result' cell's value: the 3-D Secure flow and the result code. */
function flowAndCode(value: string): { readonly flow: string; readonly code: string } {
  const colon = value.indexOf(':');
  return { flow: value.slice(0, colon), code: value.slice(colon + 1) };
}

function threeDSecureFigures(results: readonly Cell[]): ThreeDSecureFigures {
  let frictionless = 0, challenge = 0, failed = 0;
  for (const cell of results) {
    if (cell.status === 'pending') continue;
    const { flow, code } = flowAndCode(cell.value);
    if (outcomeGroupOf(code) === 'three_d_secure') failed += cell.count;
    else if (flow === 'challenge') challenge += cell.count;
    else if (flow === 'frictionless') frictionless += cell.count;
  }
  return { attempted: frictionless + challenge + failed, frictionless, challenge, failed };
}

function declinesByGroup(results: readonly Cell[]): { group: OutcomeGroup; count: number }[] {
  const counts = new Map<OutcomeGroup, number>();
  for (const cell of results) {
    if (cell.status !== 'rejected') continue;
    const group = outcomeGroupOf(flowAndCode(cell.value).code);
    counts.set(group, (counts.get(group) ?? 0) + cell.count);
  }
  return [...counts.entries()].map(([group, count]) => ({ group, count })).sort((a, b) => b.count - a.count || a.group.localeCompare(b.group));
}

export function overviewFigures(cells: readonly Cell[]): OverviewFigures {
  const byCurrency = currencyFigures(cells);
  const results = cells.filter((cell) => cell.dimension === 'result' && isPayment(cell));
  const channels = declineRows(cells, 'all', (cell) => cell.entityId);
  const approved = channels.reduce((sum, row) => sum + row.decided - row.declined, 0);
  const declined = channels.reduce((sum, row) => sum + row.declined, 0);
  const chargebacks = byCurrency.reduce((sum, row) => sum + row.chargebacks, 0);
  return {
    byCurrency,
    approved,
    declined,
    approvalRate: ratio(approved, approved + declined),
    declinesByGroup: declinesByGroup(results),
    byBrand: declineRows(cells, 'brand', (cell) => cell.value || 'none'),
    byChannel: channels,
    byConnector: declineRows(cells, 'connector', (cell) => cell.value),
    threeDSecure: threeDSecureFigures(results),
    chargebacks,
    chargebackRatio: ratio(chargebacks, approved),
  };
}

/** Operators' league tables: merchants by approved payments, and by decline rate (at least `minimum` decided). */
export function topMerchants(cells: readonly Cell[], merchantOf: (entityId: string) => string, limit = 5, minimum = 20): { readonly byVolume: readonly DeclineRow[]; readonly byDeclineRate: readonly DeclineRow[] } {
  const merchants = declineRows(cells, 'all', (cell) => merchantOf(cell.entityId));
  const approvedOf = (row: DeclineRow): number => row.decided - row.declined;
  return {
    byVolume: [...merchants].sort((a, b) => approvedOf(b) - approvedOf(a) || a.key.localeCompare(b.key)).slice(0, limit),
    byDeclineRate: merchants.filter((row) => row.decided >= minimum).sort((a, b) => (b.rate ?? 0) - (a.rate ?? 0) || a.key.localeCompare(b.key)).slice(0, limit),
  };
}
