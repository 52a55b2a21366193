import currencyCodes from 'currency-codes';
import countries from 'i18n-iso-countries';

// Sets built once: the libraries' own look-ups scan arrays on every call.
const CURRENCIES: ReadonlySet<string> = new Set(currencyCodes.codes());
const COUNTRIES_ALPHA2: ReadonlySet<string> = new Set(Object.keys(countries.getAlpha2Codes()));
const COUNTRIES_ALPHA3: ReadonlySet<string> = new Set(Object.keys(countries.getAlpha3Codes()));

/** ISO 4217 alphabetic code, upper case as the wire format demands ("EUR", not "eur"). */
export function isCurrencyCode(code: string): boolean {
  return CURRENCIES.has(code);
}

/** ISO 3166-1 alpha-2, upper case ("DE"). */
export function isCountryAlpha2(code: string): boolean {
  return COUNTRIES_ALPHA2.has(code);
}

/** ISO 3166-1 alpha-3, upper case ("DEU"); threeDSecure.merchant.country uses this form. */
export function isCountryAlpha3(code: string): boolean {
  return COUNTRIES_ALPHA3.has(code);
}
