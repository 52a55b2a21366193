/**
 * The 3DS test platform's table: what the directory server and the ACS answer, by card range,
 * deterministically. The README of this folder shows the same table; a unit test checks that
 * they agree. A card in no range is not enrolled (the `not-enrolled` row's answer); the PRes
 * lists every range but the not-enrolled ones.
 */

import { isLuhnValid } from '../../src/domain/card.js';

/**
 * - frictionless: an ARes with the row's transStatus (Y, A, N, U, R) and nothing more to do;
 * - challenge: ARes C, then the ACS's challenge page decides Y (the right code) or N;
 * - not-enrolled: the card is in no ACS's range: the DS answers ARes U, reason 13;
 * - erro: the DS answers an Erro message instead of an ARes;
 * - slow: a frictionless Y, answered only after the slow delay (a timeout for a connector);
 * - not-json / missing-fields: a malformed answer for connector tests;
 * - method: the range's ACS has a 3DS Method URL (the PRes names it); the ARes is the row's
 *   frictionless transStatus where the AReq says the method ran (threeDSCompInd Y), else a
 *   challenge as the challenge row's: a test can tell whether the method ran.
 */
export type Outcome = 'frictionless' | 'challenge' | 'method' | 'not-enrolled' | 'erro' | 'slow' | 'not-json' | 'missing-fields';

export interface CardRangeRow {
  /** Inclusive, as the PRes lists it: 16 digits each. */
  readonly startRange: string;
  readonly endRange: string;
  readonly outcome: Outcome;
  /** The ARes's transStatus (absent for the erro and not-json rows). */
  readonly transStatus?: 'Y' | 'A' | 'N' | 'U' | 'R' | 'C';
  /** transStatusReason of an N, U or R (spec Table A.1). */
  readonly transStatusReason?: string;
  /** The Erro row's error code. */
  readonly errorCode?: '402' | '403';
  /** The highest version the range's ACS supports, as the PRes lists it; 2.3.1 where absent. */
  readonly acsEndProtocolVersion?: '2.2.0' | '2.3.1';
  /** The range's ACS has a 3DS Method URL (the platform's /acs/method), which the PRes names. */
  readonly threeDSMethod?: boolean;
  readonly meaning: string;
}

export const CARD_RANGES: readonly CardRangeRow[] = [
  { startRange: '4000000000001000', endRange: '4000000000001099', outcome: 'frictionless', transStatus: 'Y', meaning: 'authenticated without a challenge: authenticationValue and eci 05' },
  { startRange: '4000000000001100', endRange: '4000000000001199', outcome: 'frictionless', transStatus: 'A', meaning: 'attempts processing: authenticationValue and eci 06' },
  { startRange: '4000000000001200', endRange: '4000000000001299', outcome: 'frictionless', transStatus: 'N', transStatusReason: '01', meaning: 'not authenticated, reason 01 (card authentication failed), eci 07' },
  { startRange: '4000000000001300', endRange: '4000000000001399', outcome: 'frictionless', transStatus: 'U', transStatusReason: '06', meaning: 'authentication could not be performed, reason 06 (technical problem at the ACS)' },
  { startRange: '4000000000001400', endRange: '4000000000001499', outcome: 'frictionless', transStatus: 'R', transStatusReason: '11', meaning: 'rejected by the issuer, reason 11 (suspected fraud)' },
  { startRange: '4000000000001500', endRange: '4000000000001599', outcome: 'challenge', transStatus: 'C', meaning: 'challenge: browser (the ACS page) or app (acsSignedContent, a JSON CReq from the SDK): the code 1234 gives Y, any other code N (reason 01), Cancel N with challengeCancel; a 3RI AReq gets C all the same (no result for the 3DS Server)' },
  { startRange: '4000000000001600', endRange: '4000000000001699', outcome: 'not-enrolled', transStatus: 'U', transStatusReason: '13', meaning: 'not enrolled: not in the PRes; the DS answers U, reason 13 (cardholder not enrolled), as for any card in no range' },
  { startRange: '4000000000001700', endRange: '4000000000001799', outcome: 'erro', errorCode: '402', meaning: 'the DS answers Erro 402 (transient system failure) instead of an ARes' },
  { startRange: '4000000000001800', endRange: '4000000000001899', outcome: 'slow', transStatus: 'Y', meaning: 'a frictionless Y, answered only after the slow delay' },
  { startRange: '4000000000001900', endRange: '4000000000001949', outcome: 'not-json', meaning: 'a malformed answer: HTTP 200 whose body is not JSON' },
  { startRange: '4000000000001950', endRange: '4000000000001999', outcome: 'missing-fields', transStatus: 'Y', meaning: 'a malformed answer: an ARes without transStatus and acsTransID' },
  { startRange: '4000000000002000', endRange: '4000000000002099', outcome: 'method', transStatus: 'Y', threeDSMethod: true, meaning: 'the PRes names a 3DS Method URL for the range: frictionless Y where the AReq says the method ran (threeDSCompInd Y), else a challenge as the challenge row' },
  { startRange: '4000000000002100', endRange: '4000000000002199', outcome: 'frictionless', transStatus: 'Y', acsEndProtocolVersion: '2.2.0', meaning: 'authenticated without a challenge, but the ACS speaks 2.2.0 only: the PRes lists the range up to 2.2.0' },
];

/** Any card in no range: the same answer as the not-enrolled row. */
export const NOT_ENROLLED: CardRangeRow = CARD_RANGES.find((row) => row.outcome === 'not-enrolled')!;

/** The one code the challenge page accepts (the page says so: it is a test platform). */
export const CHALLENGE_CODE = '1234';

/** The DS's card-range list serial number; a PReq naming it gets a PRes without changes. */
export const SERIAL_NUMBER = '1';

/** The row of a card: the range that holds it (same length, numerically between the bounds). */
export function rowOf(pan: string): CardRangeRow {
  const within = (row: CardRangeRow): boolean =>
    pan.length === row.startRange.length && BigInt(pan) >= BigInt(row.startRange) && BigInt(pan) <= BigInt(row.endRange);
  return /^\d+$/.test(pan) ? (CARD_RANGES.find(within) ?? NOT_ENROLLED) : NOT_ENROLLED;
}

/** The first card of a range that passes the Luhn check: what a payment through the gateway can use. */
export function exampleCard(row: CardRangeRow): string {
  for (let pan = BigInt(row.startRange); pan <= BigInt(row.endRange); pan++) {
    const digits = pan.toString().padStart(row.startRange.length, '0');
    if (isLuhnValid(digits)) return digits;
  }
  throw new Error(`no Luhn-valid card in ${row.startRange} to ${row.endRange}`);
}

/** Ranges the PRes lists: every row whose card is enrolled with an ACS. */
export function enrolledRanges(): readonly CardRangeRow[] {
  return CARD_RANGES.filter((row) => row.outcome !== 'not-enrolled');
}

/** The eci of an outcome (Visa's values: every test range is a Visa BIN). */
export function eciOf(transStatus: string): string {
  if (transStatus === 'Y') return '05';
  if (transStatus === 'A') return '06';
  return '07';
}
