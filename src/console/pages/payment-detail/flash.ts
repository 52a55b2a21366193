import type { FamilyNode, PaymentDetail } from '../../../operations/console/load-payment-detail.js';
import { describeResult } from '../../../operations/console/load-payment-detail.js';
import type { ConsoleActionResult } from '../../../operations/console/console-action.js';
import { resultCodes } from '../../../results/catalogue.js';
import type { PaymentActionName } from './action-form.js';
import type { Flash } from './payment-detail-page.js';

/**
 * The message after an action travels in the redirect's query (done/refused, the transaction or
 * delivery, the result code) and is worded from what the database holds when the page is shown,
 * so nothing but ids and a catalogued code ever comes from the address bar.
 */
const LABELS: Readonly<Record<PaymentActionName, string>> = { capture: 'Capture', refund: 'Refund', reverse: 'Reversal', resolve: 'Resolution', resend: 'Notification' };

function isAction(value: string | undefined): value is PaymentActionName {
  return value !== undefined && Object.hasOwn(LABELS, value);
}

/** Where the browser goes after an action: back to the payment, with what the action came to. */
export function flashLocation(paymentId: string, action: PaymentActionName, result: ConsoleActionResult | { kind: 'resent'; deliveryId: string }): string {
  const query = new URLSearchParams();
  if (result.kind === 'done') {
    query.set('done', action);
    query.set('tx', result.transactionId);
    if (result.repeated) query.set('repeated', '1');
  } else if (result.kind === 'resent') {
    query.set('done', action);
    query.set('delivery', result.deliveryId);
  } else {
    query.set('refused', action);
    query.set('code', result.resultCode);
  }
  return `/console/payments/${encodeURIComponent(paymentId)}?${query.toString()}`;
}

function members(node: FamilyNode): FamilyNode['summary'][] {
  return [node.summary, ...node.children.flatMap(members)];
}

/** The message the query asks for, if it names something of this payment. */
export function flashOf(query: Readonly<Record<string, string | undefined>>, detail: PaymentDetail): Flash | undefined {
  const refused = query['refused'];
  const code = query['code'];
  if (isAction(refused) && code && resultCodes.has(code)) return { kind: 'refused', message: `${LABELS[refused]} refused: ${code} ${describeResult(code)}` };
  const done = query['done'];
  if (!isAction(done)) return undefined;
  if (done === 'resend') {
    const delivery = detail.deliveries.find((d) => d.deliveryId === query['delivery']);
    const last = delivery?.attempts.at(-1);
    if (!last) return undefined;
    const answer = last.httpStatus === null ? last.error ?? 'no answer' : `HTTP ${last.httpStatus}`;
    return { kind: last.acknowledged ? 'success' : 'refused', message: `Notification sent again: ${last.acknowledged ? 'acknowledged' : 'not acknowledged'} (${answer}).` };
  }
  const member = members(detail.family).find((m) => m.id === query['tx']);
  if (!member) return undefined;
  const again = query['repeated'] === '1' ? 'This form had been sent already; nothing was done twice. ' : '';
  const kind = member.status === 'rejected' ? 'refused' : 'success';
  return { kind, message: `${again}${LABELS[done]} ${member.id}: ${member.status}, ${member.resultCode} ${member.resultDescription}` };
}
