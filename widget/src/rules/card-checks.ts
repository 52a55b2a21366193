/**
 * What the card form says about each field before it sends anything, as the label of the error
 * to show (null: nothing to say). `required` is false while the shopper is still typing (a blur):
 * an empty field is no error then, only at payment.
 */
import type { LabelKey } from '../i18n/keys.js';
import { cvvOptional, type CvvState, type NumberState } from './card-number.js';
import { expiryState } from './expiry.js';

export const HOLDER_MIN_LENGTH = 2;
export const HOLDER_MAX_LENGTH = 128;

export type CardField = 'number' | 'expiry' | 'cvv' | 'holder';

export function numberProblem(state: NumberState): LabelKey | null {
  if (state === 'valid') return null;
  return state === 'unsupported' ? 'brandNotAccepted' : 'cardNumberError';
}

/** MAESTRO, UNIONPAY and the local schemes issue cards without a CVV: empty is fine for them. */
export function cvvProblem(state: CvvState, brand: string | undefined): LabelKey | null {
  return state === 'valid' || (state === 'empty' && cvvOptional(brand)) ? null : 'cvvError';
}

export function expiryProblem(input: string, now: Date, required: boolean): LabelKey | null {
  const verdict = expiryState(input, now);
  if (verdict === 'valid' || (verdict === 'empty' && !required)) return null;
  return verdict === 'expired' ? 'expiredError' : 'expiryDateError';
}

export function holderProblem(input: string, required: boolean): LabelKey | null {
  const length = input.trim().length;
  if (length >= HOLDER_MIN_LENGTH && length <= HOLDER_MAX_LENGTH) return null;
  return length === 0 && !required ? null : 'cardHolderError';
}

/** Where the gateway's parameterErrors of a card payment go, and what they say in the shopper's language. */
export const SERVER_FIELD_ERRORS: Readonly<Record<string, readonly [CardField, LabelKey]>> = {
  'card.number': ['number', 'cardNumberError'],
  'card.cvv': ['cvv', 'cvvError'],
  'card.expiryMonth': ['expiry', 'expiryDateError'],
  'card.expiryYear': ['expiry', 'expiryDateError'],
  'card.holder': ['holder', 'cardHolderError'],
  paymentBrand: ['number', 'brandNotAccepted'],
};
