import { mayPerform } from '../../../domain/access/permissions.js';
import type { DeveloperWebhook, WebhooksOverview } from '../../../operations/developers/webhooks.js';
import type { CreatedWebhook } from '../../../operations/webhooks/create-webhook.js';
import { DEFAULT_ROTATION_OVERLAP_HOURS, MAX_ROTATION_OVERLAP_HOURS, type StartedRotation } from '../../../operations/webhooks/rotate-webhook-secret.js';
import { MerchantPicker } from './developers-index-page.js';
import { DeveloperLayout, FormBasics, formatTime, type PageFrame, TableWrap } from './developer-request.js';

export const WEBHOOKS = '/console/developers/webhooks';

export interface WebhooksPageProps {
  readonly frame: PageFrame;
  readonly merchants: readonly { id: string; name: string }[] | undefined;
  readonly merchantId: string | undefined;
  readonly overview: WebhooksOverview | undefined;
  readonly done: string | undefined;
}

export function WebhooksPage({ frame, merchants, merchantId, overview, done }: WebhooksPageProps) {
  const mayManage = mayPerform(frame.user.role, 'webhooks.manage');
  return (
    <DeveloperLayout frame={frame} title="Webhooks">
      <p><a href="/console/developers">Developers</a></p>
      {done === 'deleted' ? <p class="success" role="status">The webhook was deleted; nothing more is sent to it.</p> : null}
      {merchants ? <MerchantPicker action={WEBHOOKS} merchants={merchants} current={merchantId} /> : null}
      {overview ? (
        <>
          <WebhookTable webhooks={overview.webhooks} />
          {mayManage ? <CreateWebhookForm frame={frame} overview={overview} merchantId={merchants ? merchantId : undefined} /> : null}
        </>
      ) : null}
    </DeveloperLayout>
  );
}

function rotationText(webhook: DeveloperWebhook): string {
  return webhook.rotation ? `new secret waiting; switches ${formatTime(webhook.rotation.switchAt)} at the latest` : '';
}

function WebhookTable({ webhooks }: { webhooks: readonly DeveloperWebhook[] }) {
  if (webhooks.length === 0) return <p>No webhooks yet.</p>;
  return (
    <TableWrap label="Webhooks">
      <table>
        <caption class="visually-hidden">Webhooks</caption>
        <thead><tr><th scope="col">URL</th><th scope="col">For</th><th scope="col">Types</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
        <tbody>
          {webhooks.map((w) => (
            <tr key={w.webhookId}>
              <td data-label="URL" class="wrap"><a href={`${WEBHOOKS}/${w.webhookId}`}>{w.url}</a></td>
              <td data-label="For">{w.entityName}</td>
              <td data-label="Types">{w.types.join(', ')}</td>
              <td data-label="Status">{w.status}{w.rotation ? <><br /><span class="role">{rotationText(w)}</span></> : null}</td>
              <td data-label="Created">{formatTime(new Date(w.createdAt))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function CreateWebhookForm({ frame, overview, merchantId }: { frame: PageFrame; overview: WebhooksOverview; merchantId: string | undefined }) {
  return (
    <form method="post" action={WEBHOOKS} class="panel">
      <h2>Register a webhook</h2>
      <FormBasics csrfToken={frame.csrfToken} merchantId={merchantId} />
      <label for="entity">For</label>
      <select id="entity" name="entity">{overview.entities.map((e) => <option key={e.id} value={e.id}>{`${e.name} (${e.kind})`}</option>)}</select>
      <label for="url">URL</label>
      <input id="url" name="url" type="url" required size={50} placeholder="https://shop.example/webhooks" />
      <label for="types">Notification types</label>
      <input id="types" name="types" value="PAYMENT,REGISTRATION" aria-describedby="types-help" />
      <p id="types-help" class="role">Comma-separated: PAYMENT, REGISTRATION, SCHEDULE, RISK.</p>
      <button type="submit">Register</button>
    </form>
  );
}

/** The secret, once; the test notification is offered only after the merchant says the receiver holds it. */
export function WebhookCreatedPage({ frame, created }: { frame: PageFrame; created: CreatedWebhook }) {
  return (
    <DeveloperLayout frame={frame} title="Webhook registered">
      <p class="notice" role="status"><strong>Copy the secret now: it is shown only once.</strong></p>
      <dl class="secret-values">
        <dt>URL</dt><dd>{created.url}</dd>
        <dt>Secret (AES-256 key, 64 hex)</dt><dd><code class="dev-secret">{created.secret}</code></dd>
      </dl>
      <p>The webhook is <strong>pending</strong>: it receives nothing until your receiver acknowledges a test notification encrypted under this secret.</p>
      <TestForm frame={frame} webhookId={created.webhookId} askStored />
      <p><a href={`${WEBHOOKS}/${created.webhookId}`}>Open the webhook</a></p>
    </DeveloperLayout>
  );
}

function TestForm({ frame, webhookId, askStored }: { frame: PageFrame; webhookId: string; askStored: boolean }) {
  return (
    <form method="post" action={`${WEBHOOKS}/${webhookId}/test`}>
      <FormBasics csrfToken={frame.csrfToken} />
      {askStored ? (
        <p class="checkbox"><input type="checkbox" id="stored" name="stored" value="yes" required /> <label for="stored">My receiver holds the secret</label></p>
      ) : null}
      <button type="submit">Send a test notification</button>
    </form>
  );
}

/** The new secret of a rotation, once, and what happens next. */
export function RotationStartedPage({ frame, rotation }: { frame: PageFrame; rotation: StartedRotation }) {
  return (
    <DeveloperLayout frame={frame} title="New webhook secret">
      <p class="notice" role="status"><strong>Copy the new secret now: it is shown only once.</strong></p>
      <dl class="secret-values"><dt>New secret</dt><dd><code class="dev-secret">{rotation.secret}</code></dd></dl>
      <p>Notifications stay encrypted under the <strong>current</strong> secret until you confirm below, or until {formatTime(rotation.switchAt)} (the end of the overlap), whichever comes first.</p>
      <p>Install the new secret in your receiver first. A receiver may try the new key and fall back to the old one: a wrong key fails the AES-GCM tag check, so it can tell which key fits.</p>
      <ConfirmSecretForm frame={frame} webhookId={rotation.webhookId} />
      <p><a href={`${WEBHOOKS}/${rotation.webhookId}`}>Back to the webhook</a></p>
    </DeveloperLayout>
  );
}

function ConfirmSecretForm({ frame, webhookId }: { frame: PageFrame; webhookId: string }) {
  return (
    <form method="post" action={`${WEBHOOKS}/${webhookId}/confirm-secret`}>
      <FormBasics csrfToken={frame.csrfToken} />
      <p class="checkbox"><input type="checkbox" id="installed" name="installed" value="yes" required /> <label for="installed">My receiver holds the new secret</label></p>
      <button type="submit">Use the new secret now</button>
    </form>
  );
}

export function DeleteWebhookPage({ frame, webhook }: { frame: PageFrame; webhook: DeveloperWebhook }) {
  return (
    <DeveloperLayout frame={frame} title="Delete a webhook">
      <p>Delete the webhook to <strong>{webhook.url}</strong>? Notifications still queued for it are cancelled and nothing more is sent to it. Its delivery log stays readable to the operator.</p>
      <form method="post" action={`${WEBHOOKS}/${webhook.webhookId}/delete`}>
        <FormBasics csrfToken={frame.csrfToken} />
        <button type="submit" class="danger">Delete the webhook</button> <a href={`${WEBHOOKS}/${webhook.webhookId}`}>Keep it</a>
      </form>
    </DeveloperLayout>
  );
}

export { ConfirmSecretForm, TestForm, rotationText, DEFAULT_ROTATION_OVERLAP_HOURS, MAX_ROTATION_OVERLAP_HOURS };
