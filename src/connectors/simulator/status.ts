import type { ConnectorOutcome, StatusRequest } from '../connector.js';
import type { SimulatorFlavour } from './tables.js';

/**
 * What the simulated acquirer says when the gateway asks about a transaction whose answer never
 * came (docs/simulator.md, "Later outcomes"). Decided by the amount, like the first answer:
 * the simulator keeps no ledger, so a transaction of any other amount is one it has no record
 * of (the process that asked ended before the answer was stored): it never happened.
 */
export interface LaterOutcomeRow {
  readonly amountMinor: bigint | null;
  readonly operations: string;
  readonly kind: 'success' | 'declined' | 'unknown';
  /** A catalogue code, or SUCCESS for the flavour's success code. */
  readonly code: string;
  readonly meaning: string;
}

export const LATER_OUTCOME_ROWS: readonly LaterOutcomeRow[] = [
  { amountMinor: 999n, operations: 'PA DB CD CP RF', kind: 'success', code: 'SUCCESS', meaning: 'the acquirer had approved' },
  { amountMinor: 709n, operations: 'RV', kind: 'success', code: 'SUCCESS', meaning: 'the acquirer had reversed' },
  { amountMinor: 998n, operations: 'PA DB CD CP RF', kind: 'declined', code: '800.100.152', meaning: 'the acquirer had declined' },
  { amountMinor: 997n, operations: 'PA DB CD CP RF', kind: 'unknown', code: '900.100.300', meaning: 'the acquirer still cannot tell (the horizon ends it)' },
  { amountMinor: null, operations: 'any', kind: 'declined', code: '100.396.103', meaning: 'the acquirer has no record of it' },
];

const ACQUIRER_RESPONSES = { success: '00', declined: '05', unknown: '91' } as const;

function rowFor(request: StatusRequest): LaterOutcomeRow {
  const applies = (row: LaterOutcomeRow) => row.operations === 'any' || row.operations.split(' ').includes(request.paymentType);
  return LATER_OUTCOME_ROWS.find((row) => row.amountMinor === request.amountMinor && applies(row)) ?? LATER_OUTCOME_ROWS[LATER_OUTCOME_ROWS.length - 1]!;
}

export function simulatedStatus(request: StatusRequest, flavour: SimulatorFlavour, generatedId: string): ConnectorOutcome {
  const row = rowFor(request);
  const code = row.code === 'SUCCESS' ? flavour.successCode : row.code;
  return {
    kind: row.kind,
    code,
    resultDetails: {
      ConnectorTxID1: request.connectorReferences['ConnectorTxID1'] ?? `${flavour.referencePrefix}-${generatedId}`,
      AcquirerResponse: ACQUIRER_RESPONSES[row.kind],
      clearingInstituteName: flavour.clearingInstituteName,
      ExtendedDescription: `Status query: ${row.meaning}`,
    },
  };
}
