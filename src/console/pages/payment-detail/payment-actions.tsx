import { mayPerform } from '../../../domain/access/permissions.js';
import type { Role } from '../../../domain/access/roles.js';
import { formatAmount } from '../../../domain/money.js';
import { REVERSIBLE_TYPES } from '../../../domain/lifecycle/reversal.js';
import type { PaymentType } from '../../../domain/transaction.js';
import type { PaymentSummary } from '../../../operations/console/load-payment-detail.js';
import { ActionForm, Field, stateOf, type FormContext } from './action-form.js';

/** Which actions make sense for this transaction now; the operation decides for good (a stale page is refused there). */
export function applicableActions(p: PaymentSummary) {
  const succeeded = p.status === 'success' && !p.reversed;
  return {
    capture: succeeded && p.paymentType === 'PA' && p.capturedMinor < p.amountMinor,
    refund: succeeded && (p.paymentType === 'DB' || p.paymentType === 'CP') && p.refundedMinor < p.amountMinor,
    reverse: succeeded && REVERSIBLE_TYPES.includes(p.paymentType as PaymentType) && p.capturedMinor === 0n && p.refundedMinor === 0n,
    resolve: p.status === 'pending',
  };
}

/** The forms this person's role may use on this transaction; none is rendered for a role that may not. */
export function PaymentActions({ payment, role, context }: { payment: PaymentSummary; role: Role; context: FormContext }) {
  const can = applicableActions(payment);
  const forms = [
    can.capture && mayPerform(role, 'payments.capture') ? <CaptureForm key="capture" payment={payment} context={context} /> : null,
    can.refund && mayPerform(role, 'payments.refund') ? <RefundForm key="refund" payment={payment} context={context} /> : null,
    can.reverse && mayPerform(role, 'payments.reverse') ? <ReverseForm key="reverse" context={context} /> : null,
    can.resolve && mayPerform(role, 'payments.resolve-pending') ? <ResolveForm key="resolve" payment={payment} context={context} /> : null,
  ].filter((form) => form !== null);
  if (forms.length === 0) return <p>No action applies to this transaction now, or your role allows none.</p>;
  return <div class="payment-actions">{forms}</div>;
}

function CaptureForm({ payment, context }: { payment: PaymentSummary; context: FormContext }) {
  const rest = payment.amountMinor - payment.capturedMinor;
  return (
    <ActionForm context={context} action="capture" label="Capture">
      <h3>Capture</h3>
      <Field id="capture-amount" name="amount" label={`Amount (${payment.currency})`} hint={`At most ${formatAmount(rest)}; less captures in part.`} state={stateOf(context, 'capture')} value={formatAmount(rest)} inputMode="decimal" />
    </ActionForm>
  );
}

function RefundForm({ payment, context }: { payment: PaymentSummary; context: FormContext }) {
  const rest = payment.amountMinor - payment.refundedMinor;
  return (
    <ActionForm context={context} action="refund" label="Refund">
      <h3>Refund</h3>
      <Field id="refund-amount" name="amount" label={`Amount (${payment.currency})`} hint={`At most ${formatAmount(rest)}; less refunds in part.`} state={stateOf(context, 'refund')} value={formatAmount(rest)} inputMode="decimal" />
    </ActionForm>
  );
}

function ReverseForm({ context }: { context: FormContext }) {
  return (
    <ActionForm context={context} action="reverse" label="Reverse" danger>
      <h3>Reverse</h3>
      <p class="hint">Undoes the whole payment before it is settled.</p>
    </ActionForm>
  );
}

function ResolveForm({ payment, context }: { payment: PaymentSummary; context: FormContext }) {
  const state = stateOf(context, 'resolve');
  const outcome = state?.values['outcome'] ?? '';
  const error = state?.errors['outcome'];
  return (
    <ActionForm context={context} action="resolve" label="Resolve" subject={payment.id}>
      <h3>Resolve by hand</h3>
      <fieldset aria-describedby={error ? 'resolve-outcome-error' : undefined}>
        <legend>What the acquirer says</legend>
        <label class="choice"><input type="radio" name="outcome" value="success" checked={outcome === 'success'} /> The money moved (success)</label>
        <label class="choice"><input type="radio" name="outcome" value="rejected" checked={outcome === 'rejected'} /> It did not (rejected)</label>
        {error ? <p id="resolve-outcome-error" class="field-error">{error}</p> : null}
      </fieldset>
      <Field id="resolve-reason" name="reason" label="Reason (kept with the resolution)" state={state} />
    </ActionForm>
  );
}
