import { mayPerform } from '../../../domain/access/permissions.js';
import type { CreatedEntity } from '../../../operations/admin/create-entity.js';
import type { EntityWithSettings } from '../../../storage/repositories/operator-entities.js';
import { FormBasics, formatTime, type PageFrame, TableWrap } from '../developers/developer-request.js';
import { OPERATOR, OperatorLayout } from './operator-index-page.js';

export const ENTITIES = `${OPERATOR}/entities`;

/** What a refused form gets back: the message next to each field, and what was typed (masked). */
export interface FormErrors {
  readonly fields: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, string>>;
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? <p id={id} class="field-error">{message}</p> : null;
}

export function onOff(value: boolean): string {
  return value ? 'on' : 'off';
}

function EntityTable({ entities }: { entities: readonly EntityWithSettings[] }) {
  if (entities.length === 0) return <p>No merchant yet.</p>;
  return (
    <TableWrap label="Merchants and channels">
      <table>
        <caption class="visually-hidden">Merchants and channels</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">3-D Secure</th><th scope="col">Legacy authentication</th><th scope="col">Unknown parameters</th><th scope="col">Connector details</th><th scope="col">Tokens</th></tr></thead>
        <tbody>
          {entities.map((e) => (
            <tr key={e.id}>
              <td data-label="Name" class="wrap">{e.kind === 'channel' ? '↳ ' : ''}<a href={`${ENTITIES}/${e.id}`}>{e.name}</a><br /><span class="muted">{e.id}</span></td>
              <td data-label="Kind">{e.kind}</td>
              <td data-label="3-D Secure">{e.threeDSecure}</td>
              <td data-label="Legacy authentication">{onOff(e.legacyAuth)}</td>
              <td data-label="Unknown parameters">{e.unknownParameters}</td>
              <td data-label="Connector details">{e.showConnectorDetails ? 'shown' : 'hidden'}</td>
              <td data-label="Tokens">{e.activeTokens}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function CreateEntityForm({ frame, entities, errors }: { frame: PageFrame; entities: readonly EntityWithSettings[]; errors: FormErrors | undefined }) {
  const merchants = entities.filter((e) => e.kind === 'merchant');
  const parents = entities.filter((e) => e.kind === 'psp' || e.kind === 'division');
  const f = errors?.fields ?? {};
  const v = errors?.values ?? {};
  return (
    <form method="post" action={ENTITIES} class="panel narrow" id="create">
      <h2>Create a merchant or channel</h2>
      {errors ? <p class="error" role="alert">Not created: see the fields below.</p> : null}
      <FormBasics csrfToken={frame.csrfToken} />
      <label for="name">Name</label>
      <input id="name" name="name" required maxLength={128} value={v['name'] ?? ''} aria-describedby={f['name'] ? 'name-error' : 'name-help'} aria-invalid={f['name'] ? 'true' : undefined} />
      <p id="name-help" class="hint">Shown on every payment's descriptor: one line, no card number.</p>
      <FieldError id="name-error" message={f['name']} />
      <label for="merchant">Channel of</label>
      <select id="merchant" name="merchant" aria-describedby={f['merchant'] ? 'merchant-error' : undefined}>
        <option value="">— none: a new merchant —</option>
        {merchants.map((m) => <option key={m.id} value={m.id} selected={v['merchant'] === m.id}>{m.name}</option>)}
      </select>
      <FieldError id="merchant-error" message={f['merchant']} />
      <label for="parent">Under (PSP or division, for a new merchant)</label>
      <select id="parent" name="parent" aria-describedby={f['parent'] ? 'parent-error' : undefined}>
        <option value="">— none —</option>
        {parents.map((p) => <option key={p.id} value={p.id} selected={v['parent'] === p.id}>{`${p.name} (${p.kind})`}</option>)}
      </select>
      <FieldError id="parent-error" message={f['parent']} />
      <p><button type="submit">Create</button></p>
    </form>
  );
}

export function EntitiesPage({ frame, entities, errors }: { frame: PageFrame; entities: readonly EntityWithSettings[]; errors?: FormErrors | undefined }) {
  return (
    <OperatorLayout frame={frame} title="Merchants and channels">
      <EntityTable entities={entities} />
      {mayPerform(frame.user.role, 'entities.manage') ? <CreateEntityForm frame={frame} entities={entities} errors={errors} /> : null}
    </OperatorLayout>
  );
}

/** The first access token of the new entity, once (as POST /admin/entities answers it). */
export function EntityCreatedPage({ frame, created, name }: { frame: PageFrame; created: CreatedEntity; name: string }) {
  return (
    <OperatorLayout frame={frame} title={`${created.kind === 'channel' ? 'Channel' : 'Merchant'} created`}>
      <p class="notice" role="status"><strong>Copy the access token now: it is shown only once.</strong></p>
      <dl class="dev-facts">
        <dt>Name</dt><dd>{name}</dd>
        <dt>Entity id</dt><dd><code>{created.entityId}</code></dd>
        <dt>Access token (Bearer)</dt><dd><code class="dev-secret">{created.accessToken}</code></dd>
      </dl>
      <p><a href={`${ENTITIES}/${created.entityId}`}>Open its settings</a></p>
    </OperatorLayout>
  );
}

export { formatTime };
