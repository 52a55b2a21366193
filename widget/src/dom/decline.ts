/**
 * A declined payment shown where the shopper is (the tabs and accordion layouts): the reason's
 * message in the alert region above the pay button, the field to correct marked, the CVV emptied,
 * and the focus on that field or else on the message; the shopper pays again in the same checkout.
 */
import { DECLINE_FIELD, DECLINE_MESSAGE, specificReasonOf, type DeclineField, type DeclineReason } from '../rules/decline-reason.js';
import type { WidgetLabels } from '../i18n/index.js';
import { showFormMessage, type SubmitParts } from './groups.js';

export interface DeclineTarget {
  /** Marks the field with its own error text and focuses it; false when this form has no such field. */
  markField(field: DeclineField): boolean;
  /** Empties the CVV: it is never kept, so a retry asks for it again. */
  clearCvv?(): void;
}

export function showDecline(labels: WidgetLabels, submit: SubmitParts, reason: DeclineReason, target: DeclineTarget): void {
  showFormMessage(submit.message, labels[DECLINE_MESSAGE[reason]]);
  submit.message.classList.add('wpwl-message-declined');
  submit.message.dataset['reason'] = reason;
  target.clearCvv?.();
  const field = DECLINE_FIELD[reason];
  if (field && target.markField(field)) return;
  // Not in the tab order; focused so that a keyboard or screen reader user starts from it.
  submit.message.tabIndex = -1;
  submit.message.focus();
}

/** The generic failure text, or the reason's where the result code says more (a refused request, a busy checkout). */
export function failureText(labels: WidgetLabels, code: string): string {
  const reason = specificReasonOf(code);
  return reason ? labels[DECLINE_MESSAGE[reason]] : labels.paymentFailed;
}
