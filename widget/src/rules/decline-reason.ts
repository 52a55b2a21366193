/**
 * What a result code tells the shopper: why the payment did not go through and what to do next
 * ("use another card", "check the security code", "try again in a moment"), derived from the
 * result-code catalogue (src/results/result-codes.tsv, docs/result-codes.md). A table, first
 * matching row wins, so a narrow row stands above the broad one it refines.
 * Lost, stolen and fraud-suspected cards deliberately read as "your bank declined": telling a
 * shopper more would help someone trying stolen cards.
 */
import type { DeclineKey } from '../i18n/decline-texts.js';

export type DeclineReason = 'insufficientFunds' | 'cvv' | 'expiry' | 'cardNumber' | 'account' | 'bank' | 'authentication' | 'risk' | 'temporary' | 'declined';

/** The field a reason asks the shopper to correct (the card form's, or the bank form's IBAN). */
export type DeclineField = 'number' | 'expiry' | 'cvv' | 'iban';

/**
 * The published groups of codes that are no decline (compatibility.md; src/results/catalogue.ts
 * RESULT_GROUPS): success, success to review, pending. 000.400.1xx and .2xx outside them are
 * 3-D Secure and risk rejections, which the gateway answers as declines.
 */
const NOT_A_DECLINE = [/^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/, /^(000\.400\.0[^3]|000\.400\.100)/, /^000\.200/, /^(800\.400\.5|100\.400\.500)/];

const REASONS: readonly (readonly [RegExp, DeclineReason])[] = [
  [/^(800\.100\.(203|155)|100\.550\.31[01])$/, 'insufficientFunds'],
  [/^(800\.100\.(153|192)|100\.100\.60[01])$/, 'cvv'],
  [/^(800\.100\.157|100\.100\.(20[01]|30[01]|30[345]))$/, 'expiry'],
  [/^(800\.100\.(151|169|175)|100\.100\.(10[01]|50[01]|700)|100\.400\.31[67])$/, 'cardNumber'],
  [/^(800\.100\.(20[128])|100\.200\.)/, 'account'],
  // Systems that did not answer, or asked to be asked again later: nothing is wrong with the card.
  [/^(900\.|999\.|800\.800\.(400|80[01])|800\.100\.176|800\.700\.100|800\.600\.100|800\.120\.(100|402)|800\.500\.110|100\.380\.501|100\.395\.502|100\.400\.(145|32[45])|000\.400\.200)/, 'temporary'],
  [/^(100\.390\.|000\.400\.1|800\.400\.200|100\.380\.(401|306))/, 'authentication'],
  // The issuer's own no: do not honour, lost, stolen, blocked, limits, PIN, restricted.
  [/^(800\.100\.(100|152|154|158|159|16[0-3568]|17[01289]|200|500|501)|800\.310\.)/, 'bank'],
  // The gateway's or the merchant's risk rules, blacklists and address checks.
  [/^(100\.400\.|100\.100\.701|100\.380\.(100|110)|100\.370\.100|800\.400\.1|800\.1[2-6]0\.|800\.2\d\d\.|800\.300\.)/, 'risk'],
];

/** Why a payment with this result code did not go through; undefined for success and pending (and no code). */
export function declineReasonOf(code: string): DeclineReason | undefined {
  if (!/^\d{3}\.\d{3}\.\d{3}$/.test(code) || NOT_A_DECLINE.some((pattern) => pattern.test(code))) return undefined;
  return REASONS.find(([pattern]) => pattern.test(code))?.[1] ?? 'declined';
}

/** A reason that says more than "declined": worth showing instead of the generic failure text. */
export function specificReasonOf(code: string): Exclude<DeclineReason, 'declined'> | undefined {
  const reason = declineReasonOf(code);
  return reason === 'declined' ? undefined : reason;
}

/** Each reason's message (a text of i18n/decline-texts.ts, which merchants may override). */
export const DECLINE_MESSAGE: Readonly<Record<DeclineReason, DeclineKey>> = {
  insufficientFunds: 'declineInsufficientFunds',
  cvv: 'declineCvv',
  expiry: 'declineExpiry',
  cardNumber: 'declineCardNumber',
  account: 'declineAccount',
  bank: 'declineBank',
  authentication: 'declineAuthentication',
  risk: 'declineRisk',
  temporary: 'declineTemporary',
  declined: 'declined',
};

/** The field to mark and focus; the other reasons put the focus on the message. */
export const DECLINE_FIELD: Readonly<Partial<Record<DeclineReason, DeclineField>>> = {
  cvv: 'cvv',
  expiry: 'expiry',
  cardNumber: 'number',
  account: 'iban',
};
