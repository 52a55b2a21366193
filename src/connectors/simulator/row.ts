import type { AvsResponse, CardDetails, CvvResponse, OutcomeKind, PaymentMethodData, StandingInstructionData } from '../connector.js';
import type { SimulatedOperation, SimulatorInput } from './input.js';

/** Stands for the flavour's success code (SimulatorFlavour.successCode). */
export const SUCCESS = 'SUCCESS';

export interface RowOutcome {
  readonly kind: OutcomeKind;
  /** A catalogue code, or SUCCESS. */
  readonly code: string;
  /** resultDetails.AcquirerResponse: the ISO 8583 or SEPA reason code an acquirer would send. */
  readonly acquirerResponse: string;
  readonly extendedDescription: string;
  readonly avsResponse?: AvsResponse;
  readonly cvvResponse?: CvvResponse;
}

/** A request that hits a row; the tests send every example of every row. */
export interface SimulatorExample {
  readonly operation: SimulatedOperation;
  readonly amountMinor?: bigint;
  readonly method?: PaymentMethodData;
  readonly postcode?: string;
  readonly standingInstruction?: StandingInstructionData;
  /** Referencing operations: the parent was processed by another connector. */
  readonly foreignParent?: boolean;
}

/** One row of the documented table; the first row whose operations and predicate match decides. */
export interface SimulatorRow {
  readonly id: string;
  readonly operations: readonly SimulatedOperation[];
  /** The trigger in words, for docs/simulator.md. */
  readonly input: string;
  readonly matches: (input: SimulatorInput) => boolean;
  readonly outcome: RowOutcome;
  /** AVS and CVV letters not fixed by the outcome come from AVS_ROWS and CVV_ROWS. */
  readonly lettersFromTables: boolean;
  readonly examples: readonly SimulatorExample[];
}

export const INITIAL: readonly SimulatedOperation[] = ['PA', 'DB', 'CD'];
export const REFERENCING: readonly SimulatedOperation[] = ['CP', 'RF', 'RV'];

/** The typical sample card of compatibility.md with another number. */
export function sampleCard(number: string, overrides: Partial<CardDetails> = {}): PaymentMethodData {
  return { kind: 'card', card: { number, expiryMonth: '05', expiryYear: '2034', cvv: '123', holder: 'Jane Jones', ...overrides } };
}

export function declined(code: string, acquirerResponse: string, extendedDescription: string, letters: Pick<RowOutcome, 'avsResponse' | 'cvvResponse'> = {}): RowOutcome {
  return { kind: 'declined', code, acquirerResponse, extendedDescription, ...letters };
}

export function approved(extendedDescription: string): RowOutcome {
  return { kind: 'success', code: SUCCESS, acquirerResponse: '00', extendedDescription };
}
