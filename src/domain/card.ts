import creditCardType from 'credit-card-type';

/** Whether a brand's card-not-present payments need the card verification value. */
export type CvvPolicy = 'required' | 'optional';

export interface CardBrand {
  /** The gateway's brand name, as sent in paymentBrand. */
  readonly brand: string;
  /** credit-card-type ids whose number ranges belong to this brand. */
  readonly detectedAs: readonly string[];
  readonly cvv: CvvPolicy;
  /** Digits of the verification value the brand prints on its cards. */
  readonly cvvLength: 3 | 4;
  /** Some ranges of the brand are issued without a Luhn check digit, so the checksum says nothing. */
  readonly luhnChecked: boolean;
}

/**
 * The card brands the gateway knows. Brands outside this table (private label, local schemes) are
 * passed on unchecked: the number, CVV and brand rules apply only to brands listed here.
 * MAESTRO, UNIONPAY and the local schemes issue cards without CVV, so it stays optional for them.
 */
export const CARD_BRANDS: readonly CardBrand[] = [
  { brand: 'VISA', detectedAs: ['visa'], cvv: 'required', cvvLength: 3, luhnChecked: true },
  { brand: 'VISADEBIT', detectedAs: ['visa'], cvv: 'required', cvvLength: 3, luhnChecked: true },
  { brand: 'VISAELECTRON', detectedAs: ['visa'], cvv: 'required', cvvLength: 3, luhnChecked: true },
  { brand: 'VPAY', detectedAs: ['visa'], cvv: 'optional', cvvLength: 3, luhnChecked: true },
  { brand: 'MASTER', detectedAs: ['mastercard'], cvv: 'required', cvvLength: 3, luhnChecked: true },
  { brand: 'MASTERDEBIT', detectedAs: ['mastercard'], cvv: 'required', cvvLength: 3, luhnChecked: true },
  { brand: 'AMEX', detectedAs: ['american-express'], cvv: 'required', cvvLength: 4, luhnChecked: true },
  { brand: 'DINERS', detectedAs: ['diners-club'], cvv: 'required', cvvLength: 3, luhnChecked: true },
  { brand: 'DISCOVER', detectedAs: ['discover'], cvv: 'required', cvvLength: 3, luhnChecked: true },
  { brand: 'JCB', detectedAs: ['jcb'], cvv: 'required', cvvLength: 3, luhnChecked: true },
  { brand: 'MAESTRO', detectedAs: ['maestro'], cvv: 'optional', cvvLength: 3, luhnChecked: true },
  { brand: 'UNIONPAY', detectedAs: ['unionpay'], cvv: 'optional', cvvLength: 3, luhnChecked: false },
  { brand: 'MIR', detectedAs: ['mir'], cvv: 'optional', cvvLength: 3, luhnChecked: true },
  { brand: 'ELO', detectedAs: ['elo'], cvv: 'optional', cvvLength: 3, luhnChecked: true },
  { brand: 'HIPERCARD', detectedAs: ['hipercard'], cvv: 'optional', cvvLength: 3, luhnChecked: true },
];

const BRANDS_BY_NAME: ReadonlyMap<string, CardBrand> = new Map(CARD_BRANDS.map((entry) => [entry.brand, entry]));

/** The brand detection reports for each credit-card-type id: the first table entry naming it. */
const BRAND_BY_DETECTED_TYPE: ReadonlyMap<string, string> = new Map(
  [...CARD_BRANDS].reverse().flatMap((entry) => entry.detectedAs.map((type) => [type, entry.brand] as const)),
);

export function cardBrand(brand: string): CardBrand | undefined {
  return BRANDS_BY_NAME.get(brand);
}

/** Mod-10 check digit of the whole number (ISO/IEC 7812). */
export function isLuhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) digit = digit > 4 ? digit * 2 - 9 : digit * 2;
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Issuer ranges are prefixes of at most eight digits, so the prefix decides the detection. */
const RANGE_PREFIX_DIGITS = 8;
const DETECTION_CACHE_LIMIT = 10_000;
// credit-card-type deep-clones its whole table on every call (tens of µs); prefixes repeat a lot.
const detectionCache = new Map<string, readonly string[]>();

export function detectedTypes(cardNumber: string): readonly string[] {
  if (cardNumber.length < RANGE_PREFIX_DIGITS) return creditCardType(cardNumber).map((type) => type.type);
  const prefix = cardNumber.slice(0, RANGE_PREFIX_DIGITS);
  let types = detectionCache.get(prefix);
  if (!types) {
    if (detectionCache.size >= DETECTION_CACHE_LIMIT) detectionCache.clear();
    types = Object.freeze(creditCardType(prefix).map((type) => type.type));
    detectionCache.set(prefix, types);
  }
  return types;
}

/** The gateway brand the number's range belongs to, or undefined when no known range matches. */
export function detectCardBrand(cardNumber: string): string | undefined {
  for (const type of detectedTypes(cardNumber)) {
    const brand = BRAND_BY_DETECTED_TYPE.get(type);
    if (brand) return brand;
  }
  return undefined;
}

/** Whether the number lies in a range of the brand; undefined when the brand is not in the table. */
export function brandMatchesNumber(brand: string, cardNumber: string): boolean | undefined {
  const entry = BRANDS_BY_NAME.get(brand);
  if (!entry) return undefined;
  return detectedTypes(cardNumber).some((type) => entry.detectedAs.includes(type));
}

/** A card is valid through the last day of its expiry month, in UTC. */
export function isCardExpired(expiryMonth: number, expiryYear: number, now: Date): boolean {
  const expiry = expiryYear * 12 + (expiryMonth - 1);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return expiry < current;
}

/** First six and last four digits, the rest starred: the most PCI DSS 3.3 allows to display. */
export function maskCardNumber(cardNumber: string): string {
  if (cardNumber.length < 13) return '****';
  // Capped so that a huge malformed value cannot blow up an error response.
  const hidden = Math.min(cardNumber.length - 10, 22);
  return `${cardNumber.slice(0, 6)}${'*'.repeat(hidden)}${cardNumber.slice(-4)}`;
}

export function cardBin(cardNumber: string): string {
  return cardNumber.slice(0, 6);
}

export function cardLast4(cardNumber: string): string {
  return cardNumber.slice(-4);
}
