import type { AvsResponse, CvvResponse } from '../connector.js';

/** `value` is the exact input; ANY_OTHER and ABSENT close each table. */
export const ANY_OTHER = '*';
export const ABSENT = null;

export interface LetterRow<Letter> {
  readonly value: string | typeof ABSENT;
  readonly letter: Letter | null;
  readonly meaning: string;
}

/**
 * AVS letters of card payments, by billing.postcode, for table rows marked "by postcode".
 * Postcode 00009 is a decline row of the outcome table instead.
 */
export const AVS_ROWS: readonly LetterRow<AvsResponse>[] = [
  { value: '00001', letter: 'A', meaning: 'address matches, postcode does not' },
  { value: '00002', letter: 'Z', meaning: 'postcode matches, address does not' },
  { value: '00003', letter: 'N', meaning: 'neither matches (the issuer approves anyway)' },
  { value: '00004', letter: 'U', meaning: 'AVS not available at the issuer' },
  { value: ANY_OTHER, letter: 'F', meaning: 'address and postcode match' },
  { value: ABSENT, letter: null, meaning: 'no AVS check without a postcode' },
];

/** CVV letters of card payments, by card.cvv. CVV 999 is a decline row of the outcome table. */
export const CVV_ROWS: readonly LetterRow<CvvResponse>[] = [
  { value: '998', letter: 'P', meaning: 'not processed' },
  { value: '997', letter: 'S', meaning: 'CVV should be on the card but the merchant says it is absent' },
  { value: '996', letter: 'U', meaning: 'issuer does not support CVV' },
  { value: ANY_OTHER, letter: 'M', meaning: 'match' },
  { value: ABSENT, letter: null, meaning: 'nothing to check without a CVV' },
];

export function letterFor<Letter>(rows: readonly LetterRow<Letter>[], value: string | null): Letter | null {
  const row = rows.find((candidate) => candidate.value === value) ?? rows.find((candidate) => value !== null && candidate.value === ANY_OTHER);
  return row?.letter ?? null;
}

/** Identity of a simulator instance: the internal simulator, or the stub of a processor's test platform. */
export interface SimulatorFlavour {
  readonly connectorId: string;
  /** The requests the registry sends to it, for the docs. */
  readonly serves: string;
  /** Starts every ConnectorTxID1, so captures, refunds and reversals can recognise their parents. */
  readonly referencePrefix: string;
  readonly clearingInstituteName: string;
  /** A simulator serves the test system only (the live system never routes to it): its test-mode success code. */
  readonly successCode: string;
}

export const INTERNAL_SIMULATOR: SimulatorFlavour = Object.freeze({
  connectorId: 'simulator',
  serves: 'test system, testMode INTERNAL or absent',
  referencePrefix: 'SIM',
  clearingInstituteName: 'Simulator Acquiring Bank',
  successCode: '000.100.110',
});

export const EXTERNAL_TEST_PLATFORM: SimulatorFlavour = Object.freeze({
  connectorId: 'external-test-platform',
  serves: 'test system, testMode EXTERNAL where no test route names another connector',
  referencePrefix: 'ETP',
  clearingInstituteName: 'External Test Platform',
  successCode: '000.100.112',
});

export const SIMULATOR_FLAVOURS: readonly SimulatorFlavour[] = [INTERNAL_SIMULATOR, EXTERNAL_TEST_PLATFORM];
