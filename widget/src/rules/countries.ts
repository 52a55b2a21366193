import { regionOf } from './locale.js';

/**
 * The bank country as a list to choose from: ISO 3166-1 alpha-2 codes (what the API takes as
 * bankAccount.country), named in the shopper's language by Intl.DisplayNames and sorted by that
 * language's collation, the shopper's own country first. The codes are data here because Intl
 * has no list of regions to ask for.
 */
const CODES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ ' +
  'DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT ' +
  'JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ ' +
  'OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ ' +
  'UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW';

export const COUNTRY_CODES: readonly string[] = CODES.split(' ');

export interface CountryOption {
  readonly code: string;
  readonly name: string;
}

/**
 * Every country with its name in `language`, sorted by name; `first` (the shopper's country,
 * when known) leads. Without Intl.DisplayNames the codes stand for themselves.
 */
export function countryOptions(language: string, first: string | undefined): CountryOption[] {
  const names = displayNames(language);
  const collator = new Intl.Collator(language);
  const options = COUNTRY_CODES.map((code) => ({ code, name: names?.of(code) ?? code })).sort((a, b) => collator.compare(a.name, b.name));
  const lead = options.findIndex((option) => option.code === first);
  return lead > 0 ? [options[lead]!, ...options.slice(0, lead), ...options.slice(lead + 1)] : options;
}

function displayNames(language: string): Intl.DisplayNames | undefined {
  try {
    return new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    return undefined;
  }
}

/** A country preselected from the language when the locale has no region (OPPWA's language codes). */
const COUNTRY_OF_LANGUAGE: Readonly<Record<string, string>> = { de: 'DE', nl: 'NL', fr: 'FR', es: 'ES', it: 'IT', pl: 'PL', at: 'AT', fi: 'FI', se: 'SE', dk: 'DK', cz: 'CZ', sk: 'SK', pt: 'PT' };

/**
 * The shopper's country as far as the widget knows it, to preselect and list first: the
 * checkout's (its billing, else shipping address, from the gateway: where the shopper lives,
 * which a language does not say: a German speaker may bank in Austria or Switzerland), else the
 * locale's region (`de-AT` → AT), else the language's country (`de` → DE). Only a code of the
 * list counts; anything else falls through to the next source.
 */
export function preferredCountry(checkoutCountry: unknown, requestedLocale: unknown, language: string): string | undefined {
  const candidates = [typeof checkoutCountry === 'string' ? checkoutCountry.toUpperCase() : undefined, regionOf(requestedLocale), COUNTRY_OF_LANGUAGE[language]];
  return candidates.find((code): code is string => code !== undefined && COUNTRY_CODES.includes(code));
}
