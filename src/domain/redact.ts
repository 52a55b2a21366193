import { maskCardNumber } from './card.js';

/**
 * Last line of defence for free text that may carry a card number (paths, query strings,
 * log messages): any run of 12 to 19 digits, optionally split by spaces or dashes, is masked.
 */
const PAN_LIKE = /\d(?:[ -]?\d){11,18}/g;

export function maskPanLikeDigits(text: string): string {
  return text.replace(PAN_LIKE, (match) => maskCardNumber(match.replace(/[ -]/g, '')));
}

/**
 * A parameter name that looks like it holds a secret, even misspelt or unknown (card.numbr,
 * cvc, pin, password, walletA.paymentToken): its value is never shown or hashed in clear.
 */
const SECRET_LOOKING_NAME = /number|cvv|cvc|pin|pass|secret|token|crypto|iban|account|dtvc|verification/i;

export function looksSecret(name: string): boolean {
  return SECRET_LOOKING_NAME.test(name);
}
