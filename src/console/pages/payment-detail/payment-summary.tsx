import type { ComponentChildren } from 'preact';
import type { PaymentSummary } from '../../../operations/console/load-payment-detail.js';
import { money, paymentHref, utc } from './format.js';

function Fact({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The payment at a glance. Card data only as BIN and last four digits (and the holder's name). */
export function PaymentSummaryFacts({ payment }: { payment: PaymentSummary }) {
  const card = payment.bin || payment.last4 ? `${payment.bin ?? '······'} ·· ${payment.last4 ?? '····'}` : '—';
  return (
    <dl class="payment-facts">
      <Fact label="Amount">{money(payment.amountMinor, payment.currency)}</Fact>
      <Fact label="Type">{payment.paymentType}</Fact>
      <Fact label="Status"><span class={`status status-${payment.status}`}>{payment.status}</span></Fact>
      <Fact label="Result"><code>{payment.resultCode}</code> {payment.resultDescription}</Fact>
      <Fact label="Brand">{payment.brand ?? '—'}</Fact>
      <Fact label="Card (BIN ·· last four)">{card}</Fact>
      <Fact label="Holder">{payment.holder ?? '—'}</Fact>
      <Fact label="Merchant's reference">{payment.merchantTransactionId ?? '—'}</Fact>
      <Fact label="Short id">{payment.shortId}</Fact>
      <Fact label="Channel">{payment.entityId}</Fact>
      <Fact label="Connector">{payment.connectorId}</Fact>
      <Fact label="Created">{utc(payment.createdAt)}</Fact>
      {payment.capturedMinor > 0n ? <Fact label="Captured">{money(payment.capturedMinor, payment.currency)}</Fact> : null}
      {payment.refundedMinor > 0n ? <Fact label="Refunded or charged back">{money(payment.refundedMinor, payment.currency)}</Fact> : null}
      {payment.reversed ? <Fact label="Reversed">yes</Fact> : null}
      {payment.parentId ? <Fact label="Refers to"><a href={paymentHref(payment.parentId)}>{payment.parentId}</a></Fact> : null}
    </dl>
  );
}
