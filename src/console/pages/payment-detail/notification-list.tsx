import type { DeliveryFact } from '../../../storage/repositories/console/payment-events.js';
import { ActionForm, type FormContext } from './action-form.js';
import { paymentHref, utc } from './format.js';

function attemptOutcome(a: DeliveryFact['attempts'][number]): string {
  const answer = a.httpStatus === null ? a.error ?? 'no answer' : `HTTP ${a.httpStatus}`;
  return `${a.acknowledged ? 'acknowledged' : 'failed'}: ${answer}`;
}

/** Every notification of the family, each delivery with all its attempts; resend where the role allows. */
export function NotificationList({ deliveries, currentId, mayResend, context }: { deliveries: readonly DeliveryFact[]; currentId: string; mayResend: boolean; context: FormContext }) {
  if (deliveries.length === 0) return <p>No notification was written (nobody listens to this merchant's payments).</p>;
  return (
    <ul class="deliveries">
      {deliveries.map((d) => (
        <li key={d.deliveryId} class="delivery">
          <p>
            <strong>{`${d.type}${d.action ? ` ${d.action}` : ''}`}</strong> to <span class="url">{d.url}</span>: {d.status}
            {d.transactionId !== currentId ? <> (about <a href={paymentHref(d.transactionId)}>{d.transactionId.slice(0, 8)}…</a>)</> : null}
            {d.nextAttemptAt ? <>; next attempt {utc(d.nextAttemptAt)}</> : null}
          </p>
          {d.attempts.length > 0 ? (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">{`Attempts of notification ${d.notificationId}`}</caption>
                <thead><tr><th scope="col">Time</th><th scope="col">Outcome</th><th scope="col">Trigger</th><th scope="col" class="number">Took</th></tr></thead>
                <tbody>
                  {d.attempts.map((a, index) => (
                    <tr key={index}>
                      <td><time dateTime={a.attemptedAt.toISOString()}>{utc(a.attemptedAt)}</time></td>
                      <td>{attemptOutcome(a)}</td>
                      <td>{a.trigger}</td>
                      <td class="number">{`${a.latencyMs} ms`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : <p>Not attempted yet.</p>}
          {mayResend && !d.webhookDeleted ? <ActionForm context={context} action="resend" label="Send again" subject={d.deliveryId} /> : null}
        </li>
      ))}
    </ul>
  );
}
