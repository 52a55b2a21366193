import type { ComponentChildren } from 'preact';
import { mayPerform } from '../../../domain/access/permissions.js';
import { REQUIREMENT_MODES } from '../../../domain/three-d-secure/requirement.js';
import { UNKNOWN_PARAMETER_MODES } from '../../../operations/admin/set-unknown-parameters.js';
import type { EntityDetail } from '../../../operations/operator/entities.js';
import type { EntitySetting } from '../../../operations/operator/entity-settings.js';
import type { EntityWithSettings } from '../../../storage/repositories/operator-entities.js';
import { FormBasics, formatTime, type PageFrame } from '../developers/developer-request.js';
import { ENTITIES, FieldError, onOff } from './entities-pages.js';
import { Done, OperatorLayout } from './operator-index-page.js';
import { RouteTable } from './routes-pages.js';

/** A refused setting: the message next to its field, and what was typed (masked). */
export interface SettingError {
  readonly setting: EntitySetting;
  readonly message: string;
  readonly value: string;
}

const DONE: Readonly<Record<string, string>> = {
  'three-d-secure': 'The 3-D Secure requirement was changed.',
  'legacy-auth': 'Legacy authentication was changed.',
  'unknown-parameters': 'The unknown-parameter mode was changed.',
  'connector-details': 'The connector-details setting was changed.',
  throttling: 'The throttling limit was changed.',
};

/** Its own limit, or the gateway's. */
function throttlingText(limit: number | null): string {
  return limit === null ? "the gateway's (THROTTLE_MAX_REQUESTS)" : `${limit} requests per token per THROTTLE_WINDOW_MS`;
}

function SettingForm({ frame, entity, setting, title, children }: { frame: PageFrame; entity: EntityWithSettings; setting: EntitySetting; title: string; children: ComponentChildren }) {
  return (
    <form method="post" action={`${ENTITIES}/${entity.id}/${setting}`} class="action" id={setting}>
      <h3>{title}</h3>
      <FormBasics csrfToken={frame.csrfToken} />
      {children}
      <button type="submit">Save</button>
    </form>
  );
}

function OnOffField({ name, label, value, error, help }: { name: string; label: string; value: boolean; error: string | undefined; help: string }) {
  const id = `${name}-enabled`;
  return (
    <>
      <label for={id}>{label}</label>
      <select id={id} name="enabled" aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`} aria-invalid={error ? 'true' : undefined}>
        <option value="true" selected={value}>on</option>
        <option value="false" selected={!value}>off</option>
      </select>
      <p id={`${id}-help`} class="hint">{help}</p>
      <FieldError id={`${id}-error`} message={error} />
    </>
  );
}

function SettingsForms({ frame, entity, error }: { frame: PageFrame; entity: EntityWithSettings; error: SettingError | undefined }) {
  const errorOf = (setting: EntitySetting) => (error?.setting === setting ? error.message : undefined);
  const requirement = error?.setting === 'three-d-secure' ? error.value : entity.threeDSecure;
  return (
    <div class="payment-actions">
      <SettingForm frame={frame} entity={entity} setting="three-d-secure" title="3-D Secure">
        <label for="requirement">Requirement</label>
        <input id="requirement" name="requirement" value={requirement} list="requirement-modes" required aria-describedby={`requirement-help${errorOf('three-d-secure') ? ' requirement-error' : ''}`} aria-invalid={errorOf('three-d-secure') ? 'true' : undefined} />
        <datalist id="requirement-modes">{REQUIREMENT_MODES.map((m) => <option key={m.mode} value={m.text} />)}</datalist>
        <p id="requirement-help" class="hint">never, if-enrolled (the default), always, or above:&lt;amount&gt;:&lt;currency&gt; such as above:50.00:EUR.</p>
        <FieldError id="requirement-error" message={errorOf('three-d-secure')} />
      </SettingForm>
      <SettingForm frame={frame} entity={entity} setting="legacy-auth" title="Legacy authentication">
        <OnOffField name="legacy-auth" label="authentication.* fields" value={entity.legacyAuth} error={errorOf('legacy-auth')} help="OPPWA's authentication.userId/password/entityId in place of a Bearer header. Bearer tokens work either way." />
      </SettingForm>
      <SettingForm frame={frame} entity={entity} setting="unknown-parameters" title="Unknown parameters">
        <label for="mode">A parameter no endpoint knows</label>
        <select id="mode" name="mode" aria-describedby={`mode-help${errorOf('unknown-parameters') ? ' mode-error' : ''}`} aria-invalid={errorOf('unknown-parameters') ? 'true' : undefined}>
          {UNKNOWN_PARAMETER_MODES.map((m) => <option key={m} value={m} selected={entity.unknownParameters === m}>{m}</option>)}
        </select>
        <p id="mode-help" class="hint">reject (the default) answers 200.300.404 naming it; ignore accepts the request and lists the names.</p>
        <FieldError id="mode-error" message={errorOf('unknown-parameters')} />
      </SettingForm>
      <SettingForm frame={frame} entity={entity} setting="connector-details" title="Connector details">
        <OnOffField name="connector-details" label="Shown in payment answers" value={entity.showConnectorDetails} error={errorOf('connector-details')} help="ConnectorTxID1..3, AcquirerResponse and clearingInstituteName in resultDetails, webhooks included." />
      </SettingForm>
      <SettingForm frame={frame} entity={entity} setting="throttling" title="Throttling">
        <label for="maxRequests">Requests per token per window</label>
        <input id="maxRequests" name="maxRequests" inputmode="numeric" autocomplete="off" value={error?.setting === 'throttling' ? error.value : entity.throttleMaxRequests ?? ''} aria-describedby={`maxRequests-help${errorOf('throttling') ? ' maxRequests-error' : ''}`} aria-invalid={errorOf('throttling') ? 'true' : undefined} />
        <p id="maxRequests-help" class="hint">1 to 10000000 for each of its access tokens per THROTTLE_WINDOW_MS (a merchant's token acting for a channel counts here); empty: the gateway's THROTTLE_MAX_REQUESTS.</p>
        <FieldError id="maxRequests-error" message={errorOf('throttling')} />
      </SettingForm>
    </div>
  );
}

function Facts({ detail }: { detail: EntityDetail }) {
  const { entity, above } = detail;
  return (
    <dl class="dev-facts">
      <dt>Id</dt><dd><code>{entity.id}</code></dd>
      <dt>Kind</dt><dd>{entity.kind}</dd>
      {above ? <><dt>{entity.kind === 'channel' ? 'Merchant' : 'Under'}</dt><dd><a href={`${ENTITIES}/${above.id}`}>{above.name}</a></dd></> : null}
      <dt>Created</dt><dd>{formatTime(entity.createdAt)}</dd>
      <dt>Access tokens in use</dt><dd>{entity.activeTokens}</dd>
      <dt>3-D Secure</dt><dd>{entity.threeDSecure}</dd>
      <dt>Legacy authentication</dt><dd>{onOff(entity.legacyAuth)}</dd>
      <dt>Unknown parameters</dt><dd>{entity.unknownParameters}</dd>
      <dt>Connector details</dt><dd>{entity.showConnectorDetails ? 'shown' : 'hidden'}</dd>
      <dt>Throttling</dt><dd>{throttlingText(entity.throttleMaxRequests)}</dd>
    </dl>
  );
}

/** An entity's settings (each form the admin API's operation), what is below it, and its routes. */
export function EntityDetailPage({ frame, detail, error, done }: { frame: PageFrame; detail: EntityDetail; error?: SettingError | undefined; done?: string | undefined }) {
  const { entity, below } = detail;
  return (
    <OperatorLayout frame={frame} title={entity.name}>
      <p><a href={ENTITIES}>Merchants and channels</a></p>
      <Done text={done ? DONE[done] : undefined} />
      {error ? <p class="error" role="alert">Not changed: see the field below.</p> : null}
      <Facts detail={detail} />
      {mayPerform(frame.user.role, 'entities.manage') ? <><h2>Settings</h2><SettingsForms frame={frame} entity={entity} error={error} /></> : null}
      {entity.kind !== 'channel' ? (
        <>
          <h2>{entity.kind === 'merchant' ? 'Channels' : 'Below it'}</h2>
          {below.length === 0 ? <p>None.</p> : <ul>{below.map((e) => <li key={e.id}><a href={`${ENTITIES}/${e.id}`}>{e.name}</a> <span class="muted">{e.kind}</span></li>)}</ul>}
        </>
      ) : null}
      <h2>Routes naming it</h2>
      <RouteTable routes={detail.routes} frame={frame} />
    </OperatorLayout>
  );
}
