import type { FileDelivery, ListedSftpKey } from '../../../operations/settlement/file-delivery.js';
import { DeveloperLayout, formatTime, FormBasics, TableWrap, type PageFrame } from '../developers/developer-request.js';
import { DELIVERY_PATH, SettlementTabs } from './settlement-filter.js';
import { MerchantPicker } from '../developers/developers-index-page.js';

/** A refused form: which one, its messages by field, and the URL typed (never a key or a password). */
export interface DeliveryFormState {
  readonly form: 'key' | 'push';
  readonly errors: Readonly<Record<string, readonly string[]>>;
  readonly url: string;
}

export interface DeliveryPageProps {
  readonly frame: PageFrame;
  /** Operators: the merchants to choose from; undefined for a merchant's person. */
  readonly merchants: readonly { readonly id: string; readonly name: string }[] | undefined;
  readonly merchantId: string | undefined;
  readonly delivery: FileDelivery | undefined;
  readonly mayManage: boolean;
  readonly state?: DeliveryFormState | undefined;
  readonly done?: string | undefined;
}

const DONE: Readonly<Record<string, string>> = {
  'key-added': 'The key was added: it may fetch the files from its next login.',
  'key-removed': 'The key was removed: the SFTP server refuses its next login.',
  'push-set': 'The push target was set: the next files are pushed there.',
  'push-removed': 'The push target was removed: files are no longer pushed.',
};

function errorsOf(state: DeliveryFormState | undefined, form: DeliveryFormState['form'], name: string): readonly string[] {
  return state?.form === form ? (state.errors[name] ?? []) : [];
}

function FieldErrors({ id, messages }: { id: string; messages: readonly string[] }) {
  return messages.length === 0 ? null : <p id={`${id}-error`} class="field-error">{messages.join('; ')}</p>;
}

function describedBy(id: string, errors: readonly string[]): string {
  return errors.length > 0 ? `${id}-hint ${id}-error` : `${id}-hint`;
}

function KeyTable({ keys, remove }: { keys: readonly ListedSftpKey[]; remove: { csrfToken: string; merchantId: string | undefined } | undefined }) {
  if (keys.length === 0) return <p>No key: nobody may fetch the files from the SFTP server yet.</p>;
  return (
    <TableWrap label="SFTP keys">
      <table>
        <caption class="visually-hidden">SFTP keys</caption>
        <thead><tr><th scope="col">Type</th><th scope="col">Fingerprint</th><th scope="col">Added</th>{remove ? <th scope="col"><span class="visually-hidden">Remove</span></th> : null}</tr></thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.keyId}>
              <td data-label="Type">{key.type}</td>
              <td data-label="Fingerprint" class="wrap"><code>{key.fingerprint}</code></td>
              <td data-label="Added">{formatTime(key.addedAt)}</td>
              {remove ? (
                <td data-label="">
                  <form method="post" action={`${DELIVERY_PATH}/keys/remove`} class="inline">
                    <FormBasics csrfToken={remove.csrfToken} merchantId={remove.merchantId} />
                    <input type="hidden" name="keyId" value={key.keyId} />
                    <button type="submit" class="secondary" aria-label={`Remove the ${key.type} key ${key.fingerprint}`}>Remove</button>
                  </form>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The key is never sent back: a private key pasted by mistake must not travel again. */
function AddKeyForm({ frame, merchantId, state }: { frame: PageFrame; merchantId: string | undefined; state: DeliveryFormState | undefined }) {
  const errors = errorsOf(state, 'key', 'key');
  return (
    <form method="post" action={`${DELIVERY_PATH}/keys`} class="panel delivery-form" autoComplete="off">
      <h3>Add a key</h3>
      <FormBasics csrfToken={frame.csrfToken} merchantId={merchantId} />
      <label for="sftp-key">OpenSSH public key</label>
      <p id="sftp-key-hint" class="hint">The one line of the <code>.pub</code> file, e.g. <code>ssh-ed25519 AAAA… finance@shop</code>. Never the private key.</p>
      <textarea id="sftp-key" name="key" rows={3} cols={60} required spellcheck={false} autoComplete="off"
        aria-invalid={errors.length > 0 ? 'true' : undefined} aria-describedby={describedBy('sftp-key', errors)}></textarea>
      <FieldErrors id="sftp-key" messages={errors} />
      <button type="submit">Add the key</button>
    </form>
  );
}

/** The password is never sent back; the URL is, without any user-info password. */
function PushTargetForm({ frame, merchantId, current, state }: { frame: PageFrame; merchantId: string | undefined; current: string | undefined; state: DeliveryFormState | undefined }) {
  const urlErrors = errorsOf(state, 'push', 'url');
  const passwordErrors = errorsOf(state, 'push', 'password');
  return (
    <form method="post" action={`${DELIVERY_PATH}/push-target`} class="panel delivery-form" autoComplete="off">
      <h3>{current ? 'Replace the push target' : 'Set a push target'}</h3>
      <FormBasics csrfToken={frame.csrfToken} merchantId={merchantId} />
      <label for="push-url">Server URL</label>
      <p id="push-url-hint" class="hint"><code>sftp://user@host[:port]/folder</code> or <code>ftps://…</code>; the host must be a public address.</p>
      <input id="push-url" name="url" type="url" required size={48} spellcheck={false} autoComplete="off" value={state?.form === 'push' ? state.url : ''}
        aria-invalid={urlErrors.length > 0 ? 'true' : undefined} aria-describedby={describedBy('push-url', urlErrors)} />
      <FieldErrors id="push-url" messages={urlErrors} />
      <label for="push-password">Password</label>
      <p id="push-password-hint" class="hint">Sealed by the vault at once; never shown again.</p>
      <input id="push-password" name="password" type="password" required size={32} autoComplete="new-password" value=""
        aria-invalid={passwordErrors.length > 0 ? 'true' : undefined} aria-describedby={describedBy('push-password', passwordErrors)} />
      <FieldErrors id="push-password" messages={passwordErrors} />
      <button type="submit">{current ? 'Replace' : 'Set'}</button>
    </form>
  );
}

function PushTargetShown({ target, remove }: { target: FileDelivery['pushTarget']; remove: { csrfToken: string; merchantId: string | undefined } | undefined }) {
  if (!target) return <p>No push target: the files are only on the SFTP server.</p>;
  return (
    <>
      <dl class="facts">
        <dt>URL</dt><dd class="wrap"><code>{target.url}</code></dd>
        <dt>Password</dt><dd>{`set ${formatTime(target.updatedAt)}`}</dd>
      </dl>
      {remove ? (
        <form method="post" action={`${DELIVERY_PATH}/push-target/remove`}>
          <FormBasics csrfToken={remove.csrfToken} merchantId={remove.merchantId} />
          <button type="submit" class="secondary">Remove the push target</button>
        </form>
      ) : null}
    </>
  );
}

function Refused({ state }: { state: DeliveryFormState | undefined }) {
  return state ? <div class="flash flash-refused" role="alert"><p>Nothing was changed: see the message at the field below.</p></div> : null;
}

/** GET /console/settlement/delivery: who may fetch the merchant's reconciliation files, and where they are pushed. */
export function DeliveryPage({ frame, merchants, merchantId, delivery, mayManage, state, done }: DeliveryPageProps) {
  const hiddenMerchant = merchants ? merchantId : undefined;
  const manage = mayManage ? { csrfToken: frame.csrfToken, merchantId: hiddenMerchant } : undefined;
  return (
    <DeveloperLayout frame={frame} title="Reconciliation file delivery">
      <SettlementTabs current="delivery" role={frame.user.role} />
      {done && DONE[done] ? <p class="flash flash-success" role="status">{DONE[done]}</p> : null}
      <Refused state={state} />
      <p class="muted">Each day's reconciliation file may be fetched from the gateway's SFTP server (user name: the merchant id) with one of the keys below, and is also pushed to the merchant's own server when a push target is set.</p>
      {merchants ? <MerchantPicker action={DELIVERY_PATH} merchants={merchants} current={merchantId} /> : null}
      {delivery && merchantId ? (
        <>
          <section aria-labelledby="keys-heading">
            <h2 id="keys-heading">{`SFTP keys (${delivery.keys.length})`}</h2>
            <p class="muted">{'SFTP user name: '}<code>{merchantId}</code></p>
            <KeyTable keys={delivery.keys} remove={manage} />
            {mayManage ? <AddKeyForm frame={frame} merchantId={hiddenMerchant} state={state} /> : null}
          </section>
          <section aria-labelledby="push-heading">
            <h2 id="push-heading">Push target</h2>
            <PushTargetShown target={delivery.pushTarget} remove={manage} />
            {mayManage ? <PushTargetForm frame={frame} merchantId={hiddenMerchant} current={delivery.pushTarget?.url} state={state} /> : null}
          </section>
        </>
      ) : null}
    </DeveloperLayout>
  );
}
