import { createHash } from 'node:crypto';
import { detectCardBrand } from '../../../domain/card.js';
import type { AuthenticationStatus, ChallengeChoice, DirectoryAnswer } from '../../../domain/three-d-secure/answers.js';
import type { AuthenticationData, DirectoryQuery } from '../../three-d-secure.js';


/**
 * The simulated directory server and access control server (ACS) of the test system. The test
 * cards of compatibility.md decide the answer; the forcing parameters change it as documented in
 * askDirectory. Everything here is deterministic from its inputs: no clock, no randomness.
 */

export interface DirectoryTestCard {
  readonly pan: string;
  readonly brand: 'VISA' | 'MASTER';
  readonly answer: DirectoryAnswer;
}

const frictionless = (status: 'Y' | 'A'): DirectoryAnswer => ({ kind: 'frictionless', status });
const CHALLENGE: DirectoryAnswer = { kind: 'challenge' };
const NOT_ENROLLED: DirectoryAnswer = { kind: 'not-enrolled' };

/** compatibility.md, "Test system conventions": the 3DS v2 test cards, in its order. */
export const DIRECTORY_TEST_CARDS: readonly DirectoryTestCard[] = [
  { pan: '4200000000000091', brand: 'VISA', answer: frictionless('Y') },
  { pan: '4200000000000109', brand: 'VISA', answer: frictionless('A') },
  { pan: '4200000000000026', brand: 'VISA', answer: frictionless('Y') },
  { pan: '4200000000000059', brand: 'VISA', answer: frictionless('A') },
  { pan: '5200000000000007', brand: 'MASTER', answer: frictionless('Y') },
  { pan: '5200000000000023', brand: 'MASTER', answer: frictionless('A') },
  { pan: '4200000000000042', brand: 'VISA', answer: CHALLENGE },
  { pan: '4200000000000067', brand: 'VISA', answer: CHALLENGE },
  { pan: '4200000000000018', brand: 'VISA', answer: CHALLENGE },
  { pan: '4200000000000075', brand: 'VISA', answer: CHALLENGE },
  { pan: '4012001037461114', brand: 'VISA', answer: { kind: 'error' } },
  { pan: '4012001037141112', brand: 'VISA', answer: NOT_ENROLLED },
  { pan: '4532497088771651', brand: 'VISA', answer: { kind: 'not-participating' } },
];

const ANSWER_BY_PAN: ReadonlyMap<string, DirectoryAnswer> = new Map(DIRECTORY_TEST_CARDS.map((card) => [card.pan, card.answer]));

/** Every card not in the table, the no-3DS test cards included, is not enrolled. */
export const ANY_OTHER_CARD_ANSWER: DirectoryAnswer = NOT_ENROLLED;


/** The forcing rules in the order askDirectory applies them; docs.ts prints this list. */
export const FORCING_RULES: readonly { readonly parameter: string; readonly effect: string }[] = [
  { parameter: 'customParameters[3DS2_enrolled]=true', effect: 'makes a not-enrolled or not-participating card (any card outside the table too) enrolled, frictionless Y unless 3DS2_flow says challenge; an enrolled card keeps its own answer; the technical-error card stays an error (a fault, not an enrolment status)' },
  { parameter: 'customParameters[3DS2_flow]=challenge', effect: 'an enrolled (or forced) card is challenged' },
  { parameter: 'customParameters[3DS2_flow]=frictionless', effect: 'an enrolled (or forced) card is frictionless: a frictionless card keeps its status (Y or A), a challenge card answers Y; wins over challengeIndicator 04 (it says what the simulated ACS does)' },
  { parameter: 'threeDSecure.challengeIndicator=04', effect: 'challenge requested (mandate): a frictionless card is challenged' },
  { parameter: 'threeDSecure.exemptionFlag (01 to 04)', effect: 'the exemption is honoured: a challenge becomes frictionless Y, unless the challenge was forced (3DS2_flow=challenge) or requested (challengeIndicator 04)' },
];

function isEnrolled(answer: DirectoryAnswer): boolean {
  return answer.kind === 'frictionless' || answer.kind === 'challenge';
}

function forceEnrolment(answer: DirectoryAnswer, forcedEnrolled: boolean): DirectoryAnswer {
  if (!forcedEnrolled) return answer;
  return answer.kind === 'not-enrolled' || answer.kind === 'not-participating' ? frictionless('Y') : answer;
}

/** The flow of an enrolled card after 3DS2_flow, challengeIndicator 04 and an exemption, in this precedence. */
function chooseFlow(answer: DirectoryAnswer, query: DirectoryQuery): DirectoryAnswer {
  if (query.forcedFlow === 'challenge') return CHALLENGE;
  if (query.forcedFlow === 'frictionless') return answer.kind === 'frictionless' ? answer : frictionless('Y');
  if (query.challengeRequested) return CHALLENGE;
  // A honoured exemption: the ACS lets the payment through without a challenge, status Y.
  if (answer.kind === 'challenge' && query.exemptionFlag) return frictionless('Y');
  return answer;
}

/** The directory's (and the ACS's first) answer for a card; see FORCING_RULES. */
export function askDirectory(query: DirectoryQuery): DirectoryAnswer {
  const answer = forceEnrolment(ANSWER_BY_PAN.get(query.pan) ?? ANY_OTHER_CARD_ANSWER, query.forcedEnrolled);
  return isEnrolled(answer) ? chooseFlow(answer, query) : answer;
}

/** The buttons of the simulated challenge page: outcome value, the status it gives, what it means. */
export const CHALLENGE_CHOICES: readonly { readonly value: ChallengeChoice; readonly status: AuthenticationStatus; readonly description: string }[] = [
  { value: 'Y', status: 'Y', description: 'authenticated: the shopper passed the challenge' },
  { value: 'N', status: 'N', description: 'not authenticated: the shopper failed the challenge' },
  { value: 'U', status: 'U', description: 'authentication could not be performed (technical problem at the ACS)' },
  { value: 'R', status: 'R', description: 'rejected: the issuer refuses authentication and asks not to authorise' },
  // EMV 3-D Secure reports a cancelled challenge as transStatus N with a cancel indicator.
  { value: 'cancel', status: 'N', description: 'the shopper cancelled (or abandoned) the challenge' },
];


export const THREE_D_SECURE_VERSION = '2.2.0';

export type EciScheme = 'mastercard' | 'other';

/** ECI by scheme and status (compatibility.md): authenticated, attempted, none. Amex and the others follow Visa. */
export const ECI_BY_SCHEME: Readonly<Record<EciScheme, Readonly<Record<AuthenticationStatus, string>>>> = {
  other: { Y: '05', A: '06', N: '07', U: '07', R: '07' },
  mastercard: { Y: '02', A: '01', N: '00', U: '00', R: '00' },
};

/** Brands whose authentication is Mastercard Identity Check (Maestro included). */
const MASTERCARD_BRANDS: readonly string[] = ['MASTER', 'MASTERDEBIT', 'MAESTRO'];

export function eciScheme(pan: string): EciScheme {
  return MASTERCARD_BRANDS.includes(detectCardBrand(pan) ?? '') ? 'mastercard' : 'other';
}

/** EMV transStatusReason for the statuses that carry one: 01 card authentication failed, 11 suspected fraud. */
export const STATUS_REASON: Readonly<Partial<Record<AuthenticationStatus, string>>> = { N: '01', R: '11' };

const CAVV_BYTES = 20; // a CAVV/AAV is 20 bytes: 28 characters of base64

/** A CAVV-shaped value from the directory's transaction id (never from the card number), distinct per status. */
function verificationValue(status: AuthenticationStatus, dsTransactionId: string): string {
  return createHash('sha256').update(`cavv:${status}:${dsTransactionId}`).digest().subarray(0, CAVV_BYTES).toString('base64');
}

/**
 * Deterministic from its inputs: ECI by scheme and status (Visa/Amex/others 05/06/07, Mastercard
 * 02/01/00), a 28-character base64 CAVV only for Y and A (derived by hash from dsTransactionId,
 * never from the card number), version 2.2.0. challengeMandatedIndicator says whether the ACS
 * challenged; the card number is used only to pick the scheme.
 */
export function authenticationData(
  pan: string,
  status: AuthenticationData['status'],
  ids: { readonly dsTransactionId: string; readonly acsTransactionId: string },
  challenged: boolean,
): AuthenticationData {
  const reason = STATUS_REASON[status];
  return {
    status,
    eci: ECI_BY_SCHEME[eciScheme(pan)][status],
    ...(status === 'Y' || status === 'A' ? { verificationId: verificationValue(status, ids.dsTransactionId) } : {}),
    dsTransactionId: ids.dsTransactionId,
    acsTransactionId: ids.acsTransactionId,
    version: THREE_D_SECURE_VERSION,
    challengeMandatedIndicator: challenged ? 'Y' : 'N',
    ...(reason !== undefined ? { transactionStatusReason: reason } : {}),
  };
}

/** The transStatus a directory answer stands for: compatibility.md gives U for the error, N for not enrolled. */
export function directoryStatus(answer: DirectoryAnswer): AuthenticationStatus | undefined {
  switch (answer.kind) {
    case 'frictionless':
      return answer.status;
    case 'error':
    case 'unavailable':
    case 'not-participating': // "card not participating/authentication unavailable": unavailable is U
      return 'U';
    case 'failed':
      return answer.status;
    case 'not-enrolled':
      return 'N';
    case 'challenge':
      return undefined; // decided on the challenge page
  }
}
