import { details, escapeHtml, fill, hiddenInputs, outcomeButtons, type HiddenField, type OutcomeButton } from './html.js';
import { formatAmount, messagesFor, renderDocument } from './layout.js';
import type { PageLocale } from './locale.js';
import type { PageMessages } from './messages.js';

/**
 * The simulated ACS of a 3-D Secure challenge: a bank's one-time-code page, except that the
 * shopper (or a test) picks the authentication result with a button instead of typing a code.
 */

export type ChallengeOutcome = 'Y' | 'N' | 'U' | 'R' | 'cancel';
/** Y authenticated, N not authenticated, U authentication could not be performed, R the issuer rejects, cancel the shopper abandons. */
export const CHALLENGE_PAGE_OUTCOMES: readonly ChallengeOutcome[] = Object.freeze(['Y', 'N', 'U', 'R', 'cancel']);

export interface ChallengePageInput {
  readonly locale: PageLocale;
  readonly merchantName: string;
  readonly amount: string;
  readonly currency: string;
  /** The last four digits only: nothing more of the card number ever reaches a page. */
  readonly cardLast4: string;
  readonly formAction: string;
  readonly hidden: readonly HiddenField[];
  readonly nonce: string;
}

function buttons(messages: PageMessages): readonly OutcomeButton[] {
  const byOutcome: Readonly<Record<ChallengeOutcome, OutcomeButton>> = {
    Y: { value: 'Y', label: messages.authenticate, style: 'primary' },
    N: { value: 'N', label: messages.authenticationFailed, style: 'danger' },
    U: { value: 'U', label: messages.authenticationUnavailable, style: 'secondary' },
    R: { value: 'R', label: messages.issuerRejects, style: 'danger' },
    cancel: { value: 'cancel', label: messages.cancel, style: 'secondary' },
  };
  return CHALLENGE_PAGE_OUTCOMES.map((outcome) => byOutcome[outcome]);
}

/** Four digits at most, digits only: a caller's mistake must not put more of a number on the page. */
function last4(cardLast4: string): string {
  return cardLast4.replace(/\D/g, '').slice(-4);
}

export function renderChallengePage(input: ChallengePageInput): string {
  const messages = messagesFor(input.locale);
  const main = `<h1>${escapeHtml(messages.challengeTitle)}</h1>
<p>${escapeHtml(messages.challengeIntro)}</p>
${details([
  [messages.merchant, input.merchantName],
  [messages.amount, formatAmount(input.amount, input.currency, input.locale)],
  [messages.card, fill(messages.cardEnding, { last4: last4(input.cardLast4) })],
])}
<p class="note">${escapeHtml(messages.challengeCodeNote)}</p>
<form method="post" action="${escapeHtml(input.formAction)}">
${hiddenInputs(input.hidden)}
<fieldset>
<legend>${escapeHtml(messages.challengeLegend)}</legend>
<div class="actions">
${outcomeButtons(buttons(messages))}
</div>
</fieldset>
</form>`;
  return renderDocument({ locale: input.locale, title: messages.challengeTitle, nonce: input.nonce, main, tone: 'bank' });
}
