/**
 * The pay button with the amount (wpwlOptions.amountOnButton): the checkout's amount and currency
 * formatted for the shopper's language and, when the merchant's locale names one, region
 * ('de-AT': "€ 12,50 zahlen"), in the language's `submitAmount` text ("Pay {amount}").
 */
import type { Labels } from '../i18n/keys.js';
import { fillLabel, htmlLang, type WidgetLocale } from './locale.js';

const AMOUNT = /^\d{1,12}(?:\.\d{1,3})?$/;
const CURRENCY = /^[A-Z]{3}$/;

/** The BCP 47 tag Intl formats with: the widget's language, with the merchant's region when it gave one of the same language. */
export function numberLocaleOf(locale: WidgetLocale, requested: string | undefined): string {
  const language = htmlLang(locale);
  const [asked, region] = requested?.trim().toLowerCase().split(/[-_]/) ?? [];
  const sameLanguage = asked === locale || asked === language;
  return sameLanguage && region && /^[a-z]{2}$/.test(region) ? `${language}-${region.toUpperCase()}` : language;
}

/** The amount as the shopper reads it ('€12.50', '12,50 €'); undefined for an amount or currency Intl cannot take. */
export function formatAmount(amount: string, currency: string, numberLocale: string): string | undefined {
  if (!AMOUNT.test(amount) || !CURRENCY.test(currency)) return undefined;
  try {
    // A decimal string is formatted exactly (Intl.NumberFormat v3); older engines read it as a
    // Number, which is exact enough for display at the currency's own decimals.
    return new Intl.NumberFormat(numberLocale, { style: 'currency', currency }).format(amount as unknown as number);
  } catch {
    return undefined;
  }
}

/** The pay button's text with the amount, or the plain `submit` text when the amount cannot be shown. */
export function payLabel(labels: Labels, amount: string, currency: string, numberLocale: string): string {
  const formatted = formatAmount(amount, currency, numberLocale);
  return formatted === undefined ? labels.submit : fillLabel(labels.submitAmount, { amount: formatted });
}
