import { escapeHtml } from './html.js';
import { messagesFor, renderDocument } from './layout.js';
import type { PageLocale } from './locale.js';
import type { PageMessages } from './messages.js';

/** The page of a redirect link that can no longer be used: it was used, it expired, or it never existed. */

export type EndedReason = 'completed' | 'expired' | 'not-found';

export interface EndedPageInput {
  readonly locale: PageLocale;
  readonly reason: EndedReason;
  /** The Content-Security-Policy nonce of the page's style; a page without one has no style. */
  readonly nonce?: string;
  /** The merchant's result page of this payment (shopperResultUrl with id and resourcePath), when known. */
  readonly shopUrl?: string | undefined;
}

function textsOf(messages: PageMessages, reason: EndedReason): readonly [title: string, text: string] {
  switch (reason) {
    case 'completed':
      return [messages.endedCompletedTitle, messages.endedCompletedText];
    case 'expired':
      return [messages.endedExpiredTitle, messages.endedExpiredText];
    case 'not-found':
      return [messages.endedNotFoundTitle, messages.endedNotFoundText];
  }
}

export function renderEndedPage(input: EndedPageInput): string {
  const [title, text] = textsOf(messagesFor(input.locale), input.reason);
  const messages = messagesFor(input.locale);
  const back = input.shopUrl ? `\n<p><a href="${escapeHtml(input.shopUrl)}">${escapeHtml(messages.backToShop)}</a></p>` : '';
  const main = `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>${back}`;
  return renderDocument({ locale: input.locale, title, nonce: input.nonce, main, tone: 'ended' });
}
