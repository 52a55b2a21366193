import { Fragment } from 'preact';
import { mayPerform } from '../../../domain/access/permissions.js';
import type { DeliveryRequestView, DeliveryLogPage } from '../../../operations/developers/delivery-log.js';
import type { DeveloperWebhook } from '../../../operations/developers/webhooks.js';
import type { DeliveryLogEntry } from '../../../storage/repositories/developer-delivery-log.js';
import { DeveloperLayout, FormBasics, formatTime, type PageFrame, TableWrap } from './developer-request.js';
import { ConfirmSecretForm, DEFAULT_ROTATION_OVERLAP_HOURS, MAX_ROTATION_OVERLAP_HOURS, TestForm, WEBHOOKS } from './webhooks-pages.js';

const DONE_MESSAGES: Readonly<Record<string, string>> = {
  tested: 'The test notification was sent: its attempt is the newest in the delivery log.',
  resent: 'The notification was sent again: its attempt is the newest in the delivery log.',
  activated: 'The receiver acknowledged the test: the webhook is active.',
  deactivated: 'The webhook is inactive: nothing is sent to it, and queued notifications were cancelled.',
  'secret-switched': 'Notifications are encrypted under the new secret from now on.',
  'rotation-cancelled': 'The new secret was dropped; notifications stay under the current one.',
};

export interface WebhookDetailProps {
  readonly frame: PageFrame;
  readonly webhook: DeveloperWebhook;
  readonly log: DeliveryLogPage;
  readonly done: string | undefined;
}

export function WebhookDetailPage({ frame, webhook, log, done }: WebhookDetailProps) {
  const role = frame.user.role;
  return (
    <DeveloperLayout frame={frame} title="Webhook">
      <p><a href={WEBHOOKS}>Webhooks</a></p>
      {done && DONE_MESSAGES[done] ? <p class="success" role="status">{DONE_MESSAGES[done]}</p> : null}
      <dl class="dev-facts">
        <dt>URL</dt><dd class="wrap">{webhook.url}</dd>
        <dt>For</dt><dd>{webhook.entityName} (<code>{webhook.entityId}</code>)</dd>
        <dt>Status</dt><dd>{webhook.status}</dd>
        <dt>Types</dt><dd>{webhook.types.join(', ')}</dd>
        <dt>Created</dt><dd>{formatTime(new Date(webhook.createdAt))}</dd>
        <dt>Secret</dt><dd>{webhook.rotation ? `a new secret waits (made ${formatTime(webhook.rotation.createdAt)}); notifications switch to it ${formatTime(webhook.rotation.switchAt)} at the latest` : 'one secret in use'}</dd>
      </dl>
      {mayPerform(role, 'webhooks.manage') ? <WebhookActions frame={frame} webhook={webhook} /> : null}
      <h2 id="log">Delivery log</h2>
      <DeliveryLog frame={frame} webhookId={webhook.webhookId} log={log} mayResend={mayPerform(role, 'notifications.resend')} />
    </DeveloperLayout>
  );
}

function WebhookActions({ frame, webhook }: { frame: PageFrame; webhook: DeveloperWebhook }) {
  const base = `${WEBHOOKS}/${webhook.webhookId}`;
  return (
    <section class="dev-actions">
      <h2>Actions</h2>
      <TestForm frame={frame} webhookId={webhook.webhookId} askStored={webhook.status === 'pending'} />
      {webhook.rotation ? (
        <>
          <ConfirmSecretForm frame={frame} webhookId={webhook.webhookId} />
          <form method="post" action={`${base}/cancel-rotation`}>
            <FormBasics csrfToken={frame.csrfToken} />
            <button type="submit" class="secondary">Drop the new secret</button>
          </form>
        </>
      ) : (
        <form method="post" action={`${base}/rotate`}>
          <FormBasics csrfToken={frame.csrfToken} />
          <label for="overlapHours">Overlap (hours, 1 to {MAX_ROTATION_OVERLAP_HOURS})</label>
          <input id="overlapHours" name="overlapHours" inputMode="numeric" value={String(DEFAULT_ROTATION_OVERLAP_HOURS)} size={4} />{' '}
          <button type="submit" class="secondary">Rotate the secret</button>
        </form>
      )}
      {webhook.status !== 'inactive' ? (
        <form method="post" action={`${base}/deactivate`}>
          <FormBasics csrfToken={frame.csrfToken} />
          <button type="submit" class="secondary">Deactivate</button>
        </form>
      ) : (
        <form method="post" action={`${base}/activate`}>
          <FormBasics csrfToken={frame.csrfToken} />
          <button type="submit" class="secondary">Activate (sends a test it must acknowledge)</button>
        </form>
      )}
      <p><a href={`${base}/delete`}>Delete…</a></p>
    </section>
  );
}

function answerOf(entry: DeliveryLogEntry): string {
  if (entry.httpStatus !== null) return `HTTP ${entry.httpStatus}${entry.acknowledged ? ' (acknowledged)' : ''}`;
  return entry.error ?? 'no answer';
}

function DeliveryLog({ frame, webhookId, log, mayResend }: { frame: PageFrame; webhookId: string; log: DeliveryLogPage; mayResend: boolean }) {
  if (log.entries.length === 0) return <p>No attempts yet.</p>;
  return (
    <>
      <TableWrap label="Delivery attempts">
        <table>
          <caption class="visually-hidden">Delivery attempts, newest first</caption>
          <thead><tr><th scope="col">Time</th><th scope="col">Notification</th><th scope="col">Trigger</th><th scope="col">Answer</th><th scope="col" class="number">Duration</th><th scope="col">Delivery</th>{mayResend ? <th scope="col"><span class="visually-hidden">Resend</span></th> : null}</tr></thead>
          <tbody>
            {log.entries.map((e) => (
              <tr key={String(e.attemptId)}>
                <td data-label="Time">{formatTime(e.attemptedAt)}</td>
                <td data-label="Notification">
                  <a href={`${WEBHOOKS}/deliveries/${e.deliveryId}`}>{e.type}{e.action ? ` ${e.action}` : ''}</a>
                  {e.transactionId ? <><br /><a href={`/console/payments/${e.transactionId}`} class="role">payment {e.transactionId.slice(0, 8)}…</a></> : null}
                </td>
                <td data-label="Trigger">{e.trigger}</td>
                <td data-label="Answer" class={e.acknowledged ? 'success' : 'error'}>{answerOf(e)}</td>
                <td data-label="Duration" class="number">{e.latencyMs} ms</td>
                <td data-label="Delivery">{e.deliveryStatus}</td>
                {mayResend ? (
                  <td data-label="Resend">
                    <form method="post" action={`${WEBHOOKS}/deliveries/${e.deliveryId}/resend`}>
                      <FormBasics csrfToken={frame.csrfToken} />
                      <button type="submit" class="secondary" aria-label={`Resend ${e.type} notification ${e.notificationId}`}>Resend</button>
                    </form>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {log.next ? <p><a href={`${WEBHOOKS}/${webhookId}?before=${log.next}#log`}>Older attempts</a></p> : null}
    </>
  );
}

/** What each attempt of a delivery sends, the body shown before its encryption. */
export function DeliveryRequestPage({ frame, view }: { frame: PageFrame; view: DeliveryRequestView }) {
  return (
    <DeveloperLayout frame={frame} title="Notification as sent">
      <p><a href={`${WEBHOOKS}/${view.webhookId}`}>Back to the webhook</a></p>
      <p><code>POST</code> <span class="wrap">{view.url}</span></p>
      <h2>Headers</h2>
      <dl class="dev-facts">{view.headers.map(([name, value]) => <Fragment key={name}><dt>{name}</dt><dd>{value}</dd></Fragment>)}</dl>
      <h2>Body</h2>
      <p>Sent as the upper-case hex of its AES-256-GCM encryption under the webhook's secret; shown here decrypted. It holds no card number: the payload is the API's own answer (BIN and last four digits at most).</p>
      <pre class="body-view" tabIndex={0}>{view.body}</pre>
    </DeveloperLayout>
  );
}
