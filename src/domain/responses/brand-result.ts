import { detectCardBrand } from '../card.js';

/**
 * brandResult (core.md: A16, "Detected brand"): the brand the card number's range belongs to,
 * whatever paymentBrand the request named. A BIN is enough: issuer ranges are decided by their
 * first digits. Undefined when no known range matches or the brand's name is not A16.
 */
export function brandResultOf(numberOrBin: string | undefined): string | undefined {
  const detected = numberOrBin === undefined ? undefined : detectCardBrand(numberOrBin);
  return detected !== undefined && /^[A-Z]{1,16}$/.test(detected) ? detected : undefined;
}
