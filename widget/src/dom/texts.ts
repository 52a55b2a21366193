/**
 * The shopper's language's texts, fetched from the gateway beside the checkout (boot.ts waits for
 * both before it draws anything, so a form never shows English first). Without an answer the
 * widget speaks English, as it would for a language outside the 25.
 */
import { textsOfAnswer, textsUrl } from '../rules/locale.js';
import type { WidgetContext } from './context.js';

/** A hash of every text, put in by the build (src/http/widget/widget-build.ts). */
declare const __WPWL_TEXTS_VERSION__: string | undefined;
const TEXTS_VERSION = typeof __WPWL_TEXTS_VERSION__ === 'string' ? __WPWL_TEXTS_VERSION__ : '';

export async function loadTexts(context: WidgetContext): Promise<unknown> {
  const url = textsUrl(context.base, context.locale, TEXTS_VERSION);
  if (!url) return undefined;
  try {
    const response = await fetch(url, { credentials: 'omit' });
    return response.ok ? textsOfAnswer(await response.json(), context.locale) : undefined;
  } catch {
    return undefined;
  }
}
