/**
 * `window.wpwlOptions`, defined by the merchant before the script loads, read defensively: a
 * wrong type falls back to the default rather than breaking the payment form.
 */
import { ENGLISH_TEXTS } from '../i18n/english.js';
import { mergeLabels, resolveLocale } from '../rules/locale.js';
import { redirectTargetOf } from '../rules/redirect-target.js';
import { colorSchemeOf, themeDeclarations } from '../rules/style-values.js';
import type { WidgetContext, WidgetLayout, WidgetStyle } from './context.js';

export interface WpwlOptions {
  readonly locale?: unknown;
  readonly style?: unknown;
  readonly labels?: unknown;
  readonly errorMessages?: unknown;
  readonly onReady?: unknown;
  readonly onBeforeSubmitCard?: unknown;
  readonly autofocus?: unknown;
  readonly numberFormatting?: unknown;
  readonly redirectTarget?: unknown;
  readonly colorScheme?: unknown;
  readonly theme?: unknown;
  readonly amountOnButton?: unknown;
  readonly layout?: unknown;
}

const STYLES: readonly WidgetStyle[] = ['card', 'plain', 'logos', 'none'];
const LAYOUTS: readonly WidgetLayout[] = ['forms', 'tabs', 'accordion'];

export function readOptions(raw: unknown): WpwlOptions {
  return typeof raw === 'object' && raw !== null ? (raw as WpwlOptions) : {};
}

export function contextOf(options: WpwlOptions, base: string, checkoutId: string): WidgetContext {
  const locale = resolveLocale(options.locale);
  const layout = LAYOUTS.includes(options.layout as WidgetLayout) ? (options.layout as WidgetLayout) : 'forms';
  const autofocus = options.autofocus === true ? 'card.number' : typeof options.autofocus === 'string' ? options.autofocus : undefined;
  return {
    base,
    gatewayOrigin: new URL(base).origin,
    checkoutId,
    purpose: 'payment',
    locale,
    requestedLocale: typeof options.locale === 'string' ? options.locale : undefined,
    // English until the shopper's language arrives (withTexts), which happens before any form is drawn.
    labels: mergeLabels(ENGLISH_TEXTS, options.labels, options.errorMessages),
    layout,
    style: STYLES.includes(options.style as WidgetStyle) ? (options.style as WidgetStyle) : 'card',
    autofocus,
    numberFormatting: options.numberFormatting !== false,
    onBeforeSubmitCard: typeof options.onBeforeSubmitCard === 'function' ? (options.onBeforeSubmitCard as (form: HTMLFormElement) => unknown) : undefined,
    now: () => new Date(),
    redirectTarget: redirectTargetOf(options.redirectTarget, layout),
    colorScheme: colorSchemeOf(options.colorScheme, prefersDark()),
    theme: themeDeclarations(options.theme),
    // One button for every method: the amount on it unless the merchant says otherwise.
    amountOnButton: (options.amountOnButton === true || (layout !== 'forms' && options.amountOnButton !== false)) && !ownsLabel(options.labels, 'submit'),
  };
}

/**
 * The context in the shopper's language: the gateway's texts over English (a text it lacks stays
 * English), and the merchant's `labels` and `errorMessages` over both.
 */
export function withTexts(context: WidgetContext, options: WpwlOptions, texts: unknown): WidgetContext {
  return texts === undefined ? context : { ...context, labels: mergeLabels(ENGLISH_TEXTS, texts, options.labels, options.errorMessages) };
}

function prefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** The merchant's own text for a label (which the amount must not replace). */
function ownsLabel(labels: unknown, key: string): boolean {
  const text = typeof labels === 'object' && labels !== null ? (labels as Record<string, unknown>)[key] : undefined;
  return typeof text === 'string' && text.trim() !== '';
}
