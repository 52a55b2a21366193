import { maskDigitRuns } from './card-numbers-in-text.js';

/**
 * Last line of defence for free text that may carry a card number (paths, query strings,
 * log messages): any run of 12 or more digits, however split by spaces or dashes, is masked
 * whole (a run cut into chunks of 19 would leave the digits after the last chunk in clear).
 */
export function maskPanLikeDigits(text: string): string {
  return maskDigitRuns(text);
}

/** Each run of valid escapes decoded; a malformed one (%zz, a broken UTF-8 sequence) left as it is. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * A path or URL as sent: a card number can hide behind percent-encoding (%34%31…, 4111%2E1111…,
 * the UTF-8 of full-width digits). When the decoded text holds one, it is shown decoded and masked;
 * otherwise the text is shown as it came (masked like any other).
 */
export function maskPanLikeDigitsInUrl(text: string): string {
  const decoded = percentDecoded(text);
  if (decoded === text) return maskDigitRuns(text);
  const masked = maskDigitRuns(decoded);
  return masked === decoded ? maskDigitRuns(text) : masked;
}

/**
 * A parameter name that looks like it holds a secret, even misspelt or unknown (card.numbr,
 * cvc, pin, password, walletA.paymentToken): its value is never shown or hashed in clear.
 */
const SECRET_LOOKING_NAME = /number|cvv|cvc|pin|pass|secret|token|crypto|iban|account|dtvc|verification/i;

export function looksSecret(name: string): boolean {
  return SECRET_LOOKING_NAME.test(name);
}
