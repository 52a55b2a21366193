import type { ComponentChildren } from 'preact';

/** The console's actions on a payment: each a form of its own, posted to /console/payments/:id/<action>. */
export type PaymentActionName = 'capture' | 'refund' | 'reverse' | 'resolve' | 'resend';

/** A form sent back with field messages (the values as typed, the messages by field name). */
export interface ActionFormState {
  readonly action: PaymentActionName;
  /** The delivery or transaction the form was about, when the page has several of its kind. */
  readonly subject?: string | undefined;
  readonly values: Readonly<Record<string, string>>;
  readonly errors: Readonly<Record<string, string>>;
}

export interface FormContext {
  readonly paymentId: string;
  readonly csrfToken: string;
  /** A fresh nonce for each rendered form: the idempotency of what the form asks. */
  readonly nonce: () => string;
  readonly state: ActionFormState | undefined;
}

/** The state of this form if it is the one sent back, else undefined. */
export function stateOf(context: FormContext, action: PaymentActionName, subject?: string): ActionFormState | undefined {
  const { state } = context;
  return state && state.action === action && (subject === undefined || state.subject === subject) ? state : undefined;
}

/**
 * A POST form with the session's CSRF token and the form's nonce. Messages that are not about a
 * field of the form (an incomplete form, a stale page) are shown above its button.
 */
export function ActionForm({ context, action, label, subject, danger, children }: {
  context: FormContext; action: PaymentActionName; label: string; subject?: string | undefined; danger?: boolean; children?: ComponentChildren;
}) {
  const state = stateOf(context, action, subject);
  const general = state ? Object.entries(state.errors).filter(([name]) => !['amount', 'reason', 'outcome'].includes(name)) : [];
  const path = `/console/payments/${encodeURIComponent(context.paymentId)}/${action}`;
  return (
    <form method="post" action={path} class={`action action-${action}`} noValidate>
      <input type="hidden" name="_csrf" value={context.csrfToken} />
      <input type="hidden" name="nonce" value={context.nonce()} />
      {subject ? <input type="hidden" name={action === 'resend' ? 'delivery' : 'transaction'} value={subject} /> : null}
      {children}
      {general.map(([name, message]) => <p key={name} class="field-error" role="alert">{message}</p>)}
      <button type="submit" class={danger ? 'danger' : undefined}>{label}</button>
    </form>
  );
}

/** A labelled input with its message (aria-describedby ties the two for screen readers). */
export function Field({ id, name, label, hint, state, value, inputMode }: {
  id: string; name: string; label: string; hint?: string; state: ActionFormState | undefined; value?: string; inputMode?: 'decimal' | 'text';
}) {
  const error = state?.errors[name];
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint ? <p id={`${id}-hint`} class="hint">{hint}</p> : null}
      <input id={id} name={name} type="text" inputMode={inputMode} autoComplete="off" value={state?.values[name] ?? value ?? ''} aria-invalid={error ? 'true' : undefined} aria-describedby={described} />
      {error ? <p id={`${id}-error`} class="field-error">{error}</p> : null}
    </div>
  );
}
