import { escapeHtml } from './html.js';
import { directionOf, messagesLocale } from './locale.js';
import { MESSAGES, type PageMessages } from './messages.js';
import { PAGE_STYLE } from './style.js';

/** The document every simulator page shares: language, viewport, the nonce'd style, the test banner. */

export interface DocumentParts {
  readonly locale: string;
  readonly title: string;
  /** Without a nonce the page has no style element: a CSP without the nonce would block it anyway. */
  readonly nonce: string | undefined;
  /** Already escaped markup of the main content, starting with its h1. */
  readonly main: string;
  /** A colour accent: the provider's page, the bank's page, or a neutral end page. */
  readonly tone: 'provider' | 'bank' | 'ended';
  /** More rules after the pages' own style sheet, in the same nonce'd element (the wallet sheet's). */
  readonly style?: string;
  /** Attributes of the body (escaped here): data the page's script reads. */
  readonly bodyData?: Readonly<Record<string, string>>;
  /** Already escaped markup after main: a nonce'd script element. */
  readonly tail?: string;
}

export function messagesFor(locale: string): PageMessages {
  return MESSAGES[messagesLocale(locale)];
}

/** The page's lang= value: the supported language the texts are in, never a raw header value. */
export function documentLanguage(locale: string): string {
  return messagesLocale(locale);
}

function testBanner(messages: PageMessages): string {
  return `<p class="test-banner" role="note"><strong>${escapeHtml(messages.testBanner)}</strong> — ${escapeHtml(messages.testBannerDetail)}</p>`;
}

function bodyAttributes(data: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(data ?? {}).map(([name, value]) => ` data-${escapeHtml(name)}="${escapeHtml(value)}"`).join('');
}

export function renderDocument(parts: DocumentParts): string {
  const language = documentLanguage(parts.locale);
  const messages = messagesFor(parts.locale);
  return `<!DOCTYPE html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(parts.title)} · ${escapeHtml(messages.testBanner)}</title>
${parts.nonce === undefined ? '' : `<style nonce="${escapeHtml(parts.nonce)}">${PAGE_STYLE}${parts.style ?? ''}</style>\n`}</head>
<body class="${parts.tone}"${bodyAttributes(parts.bodyData)}>
${testBanner(messages)}
<main>
${parts.main}
</main>
${parts.tail ?? ''}</body>
</html>
`;
}

/** Digits after the decimal point of a wire amount ('92.00' → 2), so formatting never rounds. */
function decimalsOf(amount: string): number {
  return amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0;
}

/**
 * The amount as the shopper's language writes it ('92,00 €'). For display only: the wire string
 * (N10.N2) converts exactly at this size. An amount or currency Intl refuses is shown as sent.
 */
export function formatAmount(amount: string, currency: string, locale: string): string {
  const value = Number(amount);
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(amount) || !Number.isFinite(value)) return `${amount} ${currency}`;
  try {
    const digits = decimalsOf(amount);
    return new Intl.NumberFormat(documentLanguage(locale), { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  } catch {
    return `${amount} ${currency}`;
  }
}
