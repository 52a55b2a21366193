import { mayPerform } from '../../../domain/access/permissions.js';
import type { CreatedCredential, CredentialListing, CredentialsOverview } from '../../../operations/developers/credentials.js';
import { MerchantPicker } from './developers-index-page.js';
import { DeveloperLayout, FormBasics, formatTime, type PageFrame, TableWrap } from './developer-request.js';

const LIST = '/console/developers/credentials';

export interface CredentialsPageProps {
  readonly frame: PageFrame;
  /** Operators: every merchant to pick from; undefined for a merchant's person. */
  readonly merchants: readonly { id: string; name: string }[] | undefined;
  readonly merchantId: string | undefined;
  readonly overview: CredentialsOverview | undefined;
  readonly done: string | undefined;
}

const DONE_MESSAGES: Readonly<Record<string, string>> = {
  revoked: 'The access token was revoked. Requests with it are refused from now on (other gateway processes within 5 seconds).',
  'legacy-on': 'The authentication.* fields are accepted for that entity now.',
  'legacy-off': 'The authentication.* fields are refused for that entity now; Bearer tokens keep working.',
};

export function CredentialsPage({ frame, merchants, merchantId, overview, done }: CredentialsPageProps) {
  const mayManage = mayPerform(frame.user.role, 'credentials.manage');
  return (
    <DeveloperLayout frame={frame} title="API credentials">
      <p><a href="/console/developers">Developers</a></p>
      {done && DONE_MESSAGES[done] ? <p class="success" role="status">{DONE_MESSAGES[done]}</p> : null}
      {merchants ? <MerchantPicker action={LIST} merchants={merchants} current={merchantId} /> : null}
      {overview ? (
        <>
          <CredentialTable credentials={overview.credentials} mayManage={mayManage} merchantId={merchants ? merchantId : undefined} />
          {mayManage ? <CreateCredentialForm frame={frame} overview={overview} merchantId={merchants ? merchantId : undefined} /> : null}
          <LegacyAuthSection frame={frame} overview={overview} merchantId={merchants ? merchantId : undefined} />
        </>
      ) : null}
    </DeveloperLayout>
  );
}

function CredentialTable({ credentials, mayManage, merchantId }: { credentials: readonly CredentialListing[]; mayManage: boolean; merchantId: string | undefined }) {
  if (credentials.length === 0) return <p>No access tokens yet.</p>;
  const query = merchantId ? `?merchant=${merchantId}` : '';
  return (
    <TableWrap label="Access tokens">
      <table>
        <caption class="visually-hidden">Access tokens</caption>
        <thead><tr><th scope="col">Token id (userId)</th><th scope="col">For</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th>{mayManage ? <th scope="col"><span class="visually-hidden">Actions</span></th> : null}</tr></thead>
        <tbody>
          {credentials.map((c) => (
            <tr key={c.tokenId}>
              <td data-label="Token id"><code>{c.tokenId}</code></td>
              <td data-label="For">{c.entityName} <span class="role">({c.entityKind})</span></td>
              <td data-label="Created">{formatTime(c.createdAt)}</td>
              <td data-label="Last used">{c.lastUsedAt ? formatTime(c.lastUsedAt) : 'not in the request log'}</td>
              <td data-label="State">{c.revokedAt ? `revoked ${formatTime(c.revokedAt)}` : 'active'}</td>
              {mayManage ? <td data-label="Actions">{c.revokedAt ? null : <a href={`${LIST}/${c.tokenId}/revoke${query}`} aria-label={`Revoke token ${c.tokenId}`}>Revoke…</a>}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function EntityOptions({ overview }: { overview: CredentialsOverview }) {
  return <>{overview.entities.map((e) => <option key={e.id} value={e.id}>{`${e.name} (${e.kind})`}</option>)}</>;
}

function CreateCredentialForm({ frame, overview, merchantId }: { frame: PageFrame; overview: CredentialsOverview; merchantId: string | undefined }) {
  return (
    <form method="post" action={LIST} class="panel">
      <h2>Create an access token</h2>
      <FormBasics csrfToken={frame.csrfToken} merchantId={merchantId} />
      <label for="entity">For</label>
      <select id="entity" name="entity"><EntityOptions overview={overview} /></select>
      <p class="role">A merchant's token may act for its channels too; a channel's token for that channel only. The token is shown once.</p>
      <button type="submit">Create token</button>
    </form>
  );
}

function LegacyAuthSection({ frame, overview, merchantId }: { frame: PageFrame; overview: CredentialsOverview; merchantId: string | undefined }) {
  const mayChange = mayPerform(frame.user.role, 'credentials.legacy-auth');
  return (
    <section>
      <h2>OPPWA authentication fields</h2>
      <p>Clients that send <code>authentication.userId</code> and <code>authentication.password</code> instead of a Bearer header are accepted where this is on.</p>
      <ul>
        {overview.entities.map((e) => (
          <li key={e.id}>
            {e.name} ({e.kind}): <strong>{e.legacyAuth ? 'on' : 'off'}</strong>{' '}
            {mayChange ? (
              <form method="post" action={`${LIST}/legacy-auth`} class="inline">
                <FormBasics csrfToken={frame.csrfToken} merchantId={merchantId} />
                <input type="hidden" name="entity" value={e.id} />
                <input type="hidden" name="enabled" value={e.legacyAuth ? 'false' : 'true'} />
                <button type="submit" class="secondary">{e.legacyAuth ? `Turn off for ${e.name}` : `Turn on for ${e.name}`}</button>
              </form>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The one time a token is shown: both forms of the one credential. */
export function CredentialCreatedPage({ frame, created, backHref, mayEnableLegacy, merchantId }: { frame: PageFrame; created: CreatedCredential; backHref: string; mayEnableLegacy: boolean; merchantId: string | undefined }) {
  return (
    <DeveloperLayout frame={frame} title="Access token created">
      <p class="notice" role="status"><strong>Copy it now: it is shown only once.</strong> The gateway keeps only a hash of it.</p>
      <dl class="secret-values">
        <dt>Bearer token (header <code>Authorization: Bearer …</code>)</dt>
        <dd><code class="dev-secret">{created.accessToken}</code></dd>
        {created.legacy ? (
          <>
            <dt><code>authentication.userId</code></dt>
            <dd><code class="dev-secret">{created.legacy.userId}</code></dd>
            <dt><code>authentication.password</code></dt>
            <dd><code class="dev-secret">{created.legacy.password}</code></dd>
          </>
        ) : null}
        <dt><code>entityId</code> / <code>authentication.entityId</code></dt>
        <dd><code>{created.entityId}</code></dd>
      </dl>
      <p>The pair and the Bearer token are the same credential (the token is the base64 of <code>userId|password</code>); revoking it stops both.</p>
      {created.legacyAuthEnabled ? null : (
        <div class="notice">
          <p>The authentication.* fields are turned off for this entity: only the Bearer header works until they are turned on.</p>
          {mayEnableLegacy ? (
            <form method="post" action={`${LIST}/legacy-auth`}>
              <FormBasics csrfToken={frame.csrfToken} merchantId={merchantId} />
              <input type="hidden" name="entity" value={created.entityId} />
              <input type="hidden" name="enabled" value="true" />
              <button type="submit">Turn the fields on</button>
            </form>
          ) : <p>A merchant admin can turn them on.</p>}
        </div>
      )}
      <p><a href={backHref}>Back to the credentials</a></p>
    </DeveloperLayout>
  );
}

/** Revoking is final: a page that asks first (the list's link leads here). */
export function RevokeCredentialPage({ frame, tokenId, merchantId }: { frame: PageFrame; tokenId: string; merchantId: string | undefined }) {
  const back = merchantId ? `${LIST}?merchant=${merchantId}` : LIST;
  return (
    <DeveloperLayout frame={frame} title="Revoke an access token">
      <p>Revoke token <code>{tokenId}</code>? Every request made with it (Bearer header or authentication.* fields) is refused afterwards. This cannot be undone.</p>
      <form method="post" action={`${LIST}/${tokenId}/revoke`}>
        <FormBasics csrfToken={frame.csrfToken} merchantId={merchantId} />
        <button type="submit" class="danger">Revoke the token</button> <a href={back}>Keep it</a>
      </form>
    </DeveloperLayout>
  );
}
