import { maskDigitRuns } from './card-numbers-in-text.js';

/**
 * Last line of defence for free text that may carry a card number (paths, query strings,
 * log messages): any run of 12 or more digits, however split by spaces or dashes, is masked
 * whole (a run cut into chunks of 19 would leave the digits after the last chunk in clear).
 */
export function maskPanLikeDigits(text: string): string {
  return maskDigitRuns(text);
}

/**
 * A parameter name that looks like it holds a secret, even misspelt or unknown (card.numbr,
 * cvc, pin, password, walletA.paymentToken): its value is never shown or hashed in clear.
 */
const SECRET_LOOKING_NAME = /number|cvv|cvc|pin|pass|secret|token|crypto|iban|account|dtvc|verification/i;

export function looksSecret(name: string): boolean {
  return SECRET_LOOKING_NAME.test(name);
}
