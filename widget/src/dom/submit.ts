/**
 * After the answer to POST /v1/checkouts/{id}/payment: leave for the provider or ACS (the top
 * window, by GET or an auto-submitted POST form), go to the merchant's action with id and
 * resourcePath, or stay and show what to correct.
 */
import { outcomeOf, type FieldError, type Outcome, type RedirectInstruction } from '../rules/outcome.js';
import { returnUrl } from '../rules/action-url.js';
import type { DeclineReason } from '../rules/decline-reason.js';
import { redirectWindowOf } from '../rules/redirect-target.js';
import { openRedirect, redirectForm } from './overlay.js';
import type { WidgetContext } from './context.js';
import { failureText } from './decline.js';

export function navigateTop(redirect: RedirectInstruction): void {
  if (redirect.method === 'GET' && redirect.parameters.length === 0) {
    window.top!.location.href = redirect.url;
    return;
  }
  const form = redirectForm(redirect, '_top');
  document.body.append(form);
  form.submit();
}

/**
 * What 3-D Secure v2 asks of the shopper's browser and a page's script can read; the gateway adds
 * the request's own Accept and User-Agent.
 */
export function browserFields(): [string, string][] {
  return [
    ['customer.browser.language', (navigator.language || 'en').slice(0, 8)],
    ['customer.browser.screenHeight', String(Math.max(1, Math.min(999_999, Math.round(screen.height))))],
    ['customer.browser.screenWidth', String(Math.max(1, Math.min(999_999, Math.round(screen.width))))],
    ['customer.browser.timezone', String(new Date().getTimezoneOffset())],
    ['customer.browser.javaEnabled', 'false'],
    ['customer.browser.screenColorDepth', String(Math.min(99, screen.colorDepth || 24))],
  ];
}

/** The merchant form's custom parameters (names customParameters[…]), the return address and the browser's data. */
export function pageFields(merchantForm: HTMLFormElement): [string, string][] {
  const fields: [string, string][] = [];
  for (const element of Array.from(merchantForm.elements)) {
    const input = element as HTMLInputElement;
    if (!/^customParameters\[[^\]]+\]$/.test(input.name ?? '') || input.disabled) continue;
    if ((input.type === 'checkbox' || input.type === 'radio') && !input.checked) continue;
    fields.push([input.name, input.value]);
  }
  fields.push(['shopperResultUrl', merchantForm.action], ...browserFields());
  return fields;
}

/** The provider's or ACS's page: in the whole window, or (redirectTarget 'overlay') an overlay or popup. */
function leaveFor(context: WidgetContext, merchantForm: HTMLFormElement, redirect: RedirectInstruction): void {
  const where = redirectWindowOf({
    target: context.redirectTarget,
    redirectUrl: redirect.url,
    gatewayOrigin: context.gatewayOrigin,
    pageOrigin: location.origin,
    resultUrl: context.resultOrigin ?? merchantForm.action,
  });
  openRedirect(context, redirect, where, () => navigateTop(redirect));
}

export interface OutcomeHandlers {
  /** `unplaced`: the text for errors that name no field of the form (the code's reason, else paymentFailed). */
  readonly showFieldErrors: (errors: readonly FieldError[], unplaced: string) => void;
  readonly showMessage: (text: string) => void;
  /** The tabs and accordion layouts only: the form shows the decline and stays payable. */
  readonly showDecline: (reason: DeclineReason) => void;
}

/**
 * The forms layout keeps OPPWA's behaviour (every payment made, declined too, goes to the
 * merchant's result page), so that existing integrations see no change.
 */
export function handleAnswer(context: WidgetContext, merchantForm: HTMLFormElement, status: number, body: Record<string, unknown> | undefined, handlers: OutcomeHandlers): Outcome {
  const outcome = outcomeOf(status, body, context.layout !== 'forms');
  if (outcome.kind === 'redirect') leaveFor(context, merchantForm, outcome.redirect);
  else if (outcome.kind === 'return') window.top!.location.href = returnUrl(merchantForm.action, context.checkoutId, context.purpose);
  else if (outcome.kind === 'field-errors') handlers.showFieldErrors(outcome.errors, failureText(context.labels, outcome.code));
  else if (outcome.kind === 'declined') handlers.showDecline(outcome.reason);
  else if (outcome.kind === 'expired') handlers.showMessage(context.labels.checkoutExpired);
  else handlers.showMessage(failureText(context.labels, outcome.code));
  return outcome;
}

/** A form without secure fields (bank and redirect brands) posts from the page itself (CORS). */
export async function postFromPage(context: WidgetContext, fields: readonly (readonly [string, string])[]): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  try {
    const response = await fetch(`${context.base}checkouts/${encodeURIComponent(context.checkoutId)}/${context.purpose}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields as [string, string][]).toString(),
      credentials: 'omit',
    });
    return { status: response.status, body: (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined };
  } catch {
    return { status: 0, body: undefined };
  }
}

/** While a payment is on its way the button says so and cannot be pressed twice. */
export function setBusy(button: HTMLButtonElement, busy: boolean, labels: { submit: string; processing: string }): void {
  button.disabled = busy;
  button.textContent = busy ? labels.processing : labels.submit;
  button.setAttribute('aria-busy', String(busy));
}
