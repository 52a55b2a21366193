import { mayPerform } from '../../../domain/access/permissions.js';
import type { RouteView } from '../../../operations/routing/route-view.js';
import type { EntityWithSettings } from '../../../storage/repositories/operator-entities.js';
import { FormBasics, formatTime, type PageFrame, TableWrap } from '../developers/developer-request.js';
import type { FormErrors } from './entities-pages.js';
import { FieldError } from './entities-pages.js';
import { Done, OPERATOR, OperatorLayout } from './operator-index-page.js';

export const ROUTES = `${OPERATOR}/routes`;
/** Rows of name and secret the forms offer; a connector needs one to three today. */
export const CREDENTIAL_ROWS = 3;

export interface ConnectorChoice {
  readonly connectorId: string;
  readonly liveCapable: boolean;
}

const any = (value: string | null, word: string) => value ?? <span class="muted">{word}</span>;

export function RouteTable({ routes, frame, entityNames }: { routes: readonly RouteView[]; frame: PageFrame; entityNames?: ReadonlyMap<string, string> }) {
  const mayManage = mayPerform(frame.user.role, 'routes.manage');
  if (routes.length === 0) return <p>No route.</p>;
  return (
    <TableWrap label="Routes">
      <table>
        <caption class="visually-hidden">Routes</caption>
        <thead><tr><th scope="col">System</th><th scope="col">Entity</th><th scope="col">Brand</th><th scope="col">Currency</th><th scope="col">Connector</th><th scope="col">Credentials</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {routes.map((r) => (
            <tr key={r.routeId}>
              <td data-label="System">{r.system}</td>
              <td data-label="Entity" class="wrap">{r.entityId ? (entityNames?.get(r.entityId) ?? r.entityId) : <span class="muted">every entity</span>}</td>
              <td data-label="Brand">{any(r.paymentBrand, 'any')}</td>
              <td data-label="Currency">{any(r.currency, 'any')}</td>
              <td data-label="Connector">{r.connectorId}{r.fallbackRouteId ? <><br /><span class="muted">with a fallback</span></> : null}</td>
              <td data-label="Credentials" class="wrap">{r.credentialNames.length > 0 ? r.credentialNames.join(', ') : <span class="muted">none</span>}<br /><span class="muted">{`changed ${formatTime(new Date(r.updatedAt))}`}</span></td>
              <td data-label="State">{r.disabledAt ? `disabled ${formatTime(new Date(r.disabledAt))}` : 'enabled'}</td>
              <td data-label="Actions">{mayManage && !r.disabledAt ? <RouteActions frame={frame} route={r} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function RouteActions({ frame, route }: { frame: PageFrame; route: RouteView }) {
  return (
    <div class="actions">
      <a href={`${ROUTES}/${route.routeId}/credentials`}>Rotate credentials<span class="visually-hidden">{` of the ${route.connectorId} route`}</span></a>
      <form method="post" action={`${ROUTES}/${route.routeId}/disable`} class="inline">
        <FormBasics csrfToken={frame.csrfToken} />
        <button type="submit" class="danger">Disable<span class="visually-hidden">{` the ${route.connectorId} route`}</span></button>
      </form>
    </div>
  );
}

/** Name and secret rows; a secret field never carries a value back (not even after a refusal). */
export function CredentialFields({ names, error }: { names: readonly string[]; error: string | undefined }) {
  return (
    <fieldset aria-describedby={`credentials-help${error ? ' credentials-error' : ''}`}>
      <legend>Credentials</legend>
      <p id="credentials-help" class="hint">Sealed by the vault; the secrets are never shown again, here or anywhere.</p>
      {Array.from({ length: CREDENTIAL_ROWS }, (_, i) => (
        <div class="credential-row" key={i}>
          <div>
            <label for={`credential-name-${i}`}>{`Name ${i + 1}`}</label>
            <input id={`credential-name-${i}`} name="credentialName" value={names[i] ?? ''} autocomplete="off" spellcheck={false} />
          </div>
          <div>
            <label for={`credential-value-${i}`}>{`Secret ${i + 1}`}</label>
            <input id={`credential-value-${i}`} name="credentialValue" type="password" autocomplete="new-password" />
          </div>
        </div>
      ))}
      <FieldError id="credentials-error" message={error} />
    </fieldset>
  );
}

function AddRouteForm({ frame, connectors, entities, errors }: { frame: PageFrame; connectors: readonly ConnectorChoice[]; entities: readonly EntityWithSettings[]; errors: FormErrors | undefined }) {
  const f = errors?.fields ?? {};
  const v = errors?.values ?? {};
  const described = (name: string) => (f[name] ? { 'aria-describedby': `${name}-error`, 'aria-invalid': 'true' as const } : {});
  return (
    <form method="post" action={ROUTES} class="panel narrow" id="add">
      <h2>Add a route</h2>
      {errors ? <p class="error" role="alert">Not added: see the fields below.</p> : null}
      {f['route'] ? <p class="error">{f['route']}</p> : null}
      <FormBasics csrfToken={frame.csrfToken} />
      <label for="system">System</label>
      <select id="system" name="system" {...described('system')}>{(['test', 'live'] as const).map((s) => <option key={s} value={s} selected={(v['system'] || frame.system) === s}>{s}</option>)}</select>
      <FieldError id="system-error" message={f['system']} />
      <label for="entity">Entity</label>
      <select id="entity" name="entity" {...described('entity')}>
        <option value="">every entity</option>
        {entities.map((e) => <option key={e.id} value={e.id} selected={v['entity'] === e.id}>{`${e.name} (${e.kind})`}</option>)}
      </select>
      <FieldError id="entity-error" message={f['entity']} />
      <label for="brand">Brand</label>
      <input id="brand" name="brand" value={v['brand'] ?? ''} placeholder="any (e.g. VISA)" {...described('brand')} />
      <FieldError id="brand-error" message={f['brand']} />
      <label for="currency">Currency</label>
      <input id="currency" name="currency" value={v['currency'] ?? ''} placeholder="any (e.g. EUR)" maxLength={3} {...described('currency')} />
      <FieldError id="currency-error" message={f['currency']} />
      <label for="connector">Connector</label>
      <select id="connector" name="connector" {...described('connector')}>{connectors.map((c) => <option key={c.connectorId} value={c.connectorId} selected={v['connector'] === c.connectorId}>{`${c.connectorId}${c.liveCapable ? '' : ' (test only)'}`}</option>)}</select>
      <FieldError id="connector-error" message={f['connector']} />
      <CredentialFields names={(v['credentialNames'] ?? '').split('\n').filter(Boolean)} error={f['credentials']} />
      <button type="submit">Add the route</button>
    </form>
  );
}

export interface RoutesPageProps {
  readonly frame: PageFrame;
  readonly routes: readonly RouteView[];
  readonly connectors: readonly ConnectorChoice[];
  readonly entities: readonly EntityWithSettings[];
  readonly errors?: FormErrors | undefined;
  readonly done?: string | undefined;
}

const DONE: Readonly<Record<string, string>> = { added: 'The route was added.', disabled: 'The route was disabled: no new payment takes it.', rotated: "The route's credentials were replaced; new payments use them at once." };

export function RoutesPage({ frame, routes, connectors, entities, errors, done }: RoutesPageProps) {
  const names = new Map(entities.map((e) => [e.id, e.name]));
  return (
    <OperatorLayout frame={frame} title="Connectors and routes">
      <Done text={done ? DONE[done] : undefined} />
      <p class="hint">A payment takes the most specific enabled route of its system: its entity (else its merchant, else every entity), its brand, its currency.</p>
      <RouteTable routes={routes} frame={frame} entityNames={names} />
      <h2>Connectors of this gateway</h2>
      <ul>{connectors.map((c) => <li key={c.connectorId}>{c.connectorId} <span class="muted">{c.liveCapable ? 'reaches an acquirer' : 'test system only'}</span></li>)}</ul>
      {mayPerform(frame.user.role, 'routes.manage') ? <AddRouteForm frame={frame} connectors={connectors} entities={entities} errors={errors} /> : null}
    </OperatorLayout>
  );
}

export function RotateCredentialsPage({ frame, route, error }: { frame: PageFrame; route: RouteView; error?: string | undefined }) {
  return (
    <OperatorLayout frame={frame} title="Rotate a route's credentials">
      <p><a href={ROUTES}>Connectors and routes</a></p>
      <p>{`The ${route.system} route to ${route.connectorId}`}{route.paymentBrand ? ` for ${route.paymentBrand}` : ''}{route.currency ? ` in ${route.currency}` : ''}. Payments already on their way finish with the credentials they started with; new ones take the new credentials at once.</p>
      {error ? <p class="error" role="alert">Not replaced: see the credentials below.</p> : null}
      <form method="post" action={`${ROUTES}/${route.routeId}/credentials`} class="panel narrow">
        <FormBasics csrfToken={frame.csrfToken} />
        <CredentialFields names={route.credentialNames} error={error} />
        <button type="submit">Replace the credentials</button>
      </form>
    </OperatorLayout>
  );
}
