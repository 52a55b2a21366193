/**
 * Which form each brand of `data-brands` gets: every card brand shares one card form; SEPA direct
 * debit asks for the account; an asynchronous brand (src/domain/payment-brands.ts) asks only for
 * the bank fields the shopper knows (the merchant's server sends names, addresses and cart items
 * with the checkout) and then sends the shopper to the provider.
 */
import { cardBrand } from '../../../src/domain/card.js';
import { asynchronousBrand } from '../../../src/domain/payment-brands.js';

export const SEPA_BRAND = 'DIRECTDEBIT_SEPA';

export interface BankField {
  /** The payment parameter: 'bankAccount.iban'. */
  readonly name: string;
  readonly label: 'accountHolder' | 'iban' | 'bic' | 'country';
  readonly required: boolean;
}

export type BrandForm =
  | { readonly kind: 'card'; readonly brands: readonly string[] }
  | { readonly kind: 'bank'; readonly brand: string; readonly name: string; readonly fields: readonly BankField[]; readonly redirect: boolean };

const BANK_LABELS: Readonly<Record<string, BankField['label']>> = {
  'bankAccount.holder': 'accountHolder',
  'bankAccount.iban': 'iban',
  'bankAccount.bic': 'bic',
  'bankAccount.country': 'country',
};

const SEPA_FIELDS: readonly BankField[] = [
  { name: 'bankAccount.holder', label: 'accountHolder', required: true },
  { name: 'bankAccount.iban', label: 'iban', required: true },
  { name: 'bankAccount.bic', label: 'bic', required: false },
];

/** 'VISA MASTER  SOFORTUEBERWEISUNG' → ['VISA', 'MASTER', 'SOFORTUEBERWEISUNG'], upper case, no repeats. */
export function parseBrands(attribute: string | null): string[] {
  const brands = (attribute ?? '').toUpperCase().split(/[\s,]+/).filter((brand) => /^[A-Z0-9_]{1,32}$/.test(brand));
  return [...new Set(brands)];
}

export function isCardBrand(brand: string): boolean {
  return cardBrand(brand) !== undefined;
}

/** The forms in the order of data-brands: the card form where the first card brand stands. */
export function formsOf(brands: readonly string[]): BrandForm[] {
  const cards = brands.filter(isCardBrand);
  const forms: BrandForm[] = [];
  for (const brand of brands) {
    if (isCardBrand(brand)) {
      if (brand === cards[0]) forms.push({ kind: 'card', brands: cards });
      continue;
    }
    if (brand === SEPA_BRAND) {
      forms.push({ kind: 'bank', brand, name: 'SEPA', fields: SEPA_FIELDS, redirect: false });
      continue;
    }
    const entry = asynchronousBrand(brand);
    const fields = (entry?.required ?? []).filter((name) => name in BANK_LABELS).map((name) => ({ name, label: BANK_LABELS[name]!, required: true }));
    forms.push({ kind: 'bank', brand, name: entry?.name ?? brand, fields, redirect: true });
  }
  return forms;
}
