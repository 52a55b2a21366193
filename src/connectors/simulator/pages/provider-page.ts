import { details, escapeHtml, fill, hiddenInputs, outcomeButtons, type HiddenField, type OutcomeButton } from './html.js';
import { formatAmount, messagesFor, renderDocument } from './layout.js';
import type { PageLocale } from './locale.js';
import type { PageMessages } from './messages.js';

/** The simulated provider's page of an asynchronous brand (PayPal, Sofort …): approve, decline, cancel. */

export type ProviderOutcome = 'approve' | 'decline' | 'cancel';
export const PROVIDER_OUTCOMES: readonly ProviderOutcome[] = Object.freeze(['approve', 'decline', 'cancel']);

export interface ProviderPageInput {
  readonly locale: PageLocale;
  readonly brandName: string;
  readonly merchantName: string;
  readonly amount: string;
  readonly currency: string;
  readonly formAction: string;
  readonly hidden: readonly HiddenField[];
  readonly nonce: string;
}

function buttons(messages: PageMessages): readonly OutcomeButton[] {
  const byOutcome: Readonly<Record<ProviderOutcome, OutcomeButton>> = {
    approve: { value: 'approve', label: messages.approve, style: 'primary' },
    decline: { value: 'decline', label: messages.decline, style: 'danger' },
    cancel: { value: 'cancel', label: messages.cancelToShop, style: 'secondary' },
  };
  return PROVIDER_OUTCOMES.map((outcome) => byOutcome[outcome]);
}

export function renderProviderPage(input: ProviderPageInput): string {
  const messages = messagesFor(input.locale);
  const values = { brand: input.brandName, merchant: input.merchantName };
  const title = fill(messages.providerTitle, values);
  const main = `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(fill(messages.providerIntro, values))}</p>
${details([
  [messages.merchant, input.merchantName],
  [messages.amount, formatAmount(input.amount, input.currency, input.locale)],
])}
<form method="post" action="${escapeHtml(input.formAction)}">
${hiddenInputs(input.hidden)}
<fieldset>
<legend>${escapeHtml(messages.providerLegend)}</legend>
<div class="actions">
${outcomeButtons(buttons(messages))}
</div>
</fieldset>
</form>`;
  return renderDocument({ locale: input.locale, title, nonce: input.nonce, main, tone: 'provider' });
}
