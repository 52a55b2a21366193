import type { ComponentChildren } from 'preact';
import { mayPerform, type Action } from '../../../domain/access/permissions.js';
import { DeveloperLayout, type PageFrame } from '../developers/developer-request.js';

export const RISK = '/console/risk';
export const RISK_LISTS = `${RISK}/lists`;
export const RISK_RULES = `${RISK}/rules`;
export const RISK_REVIEWS = `${RISK}/reviews`;

/** The risk area's pages, each with the action a role needs to open it. */
const RISK_PAGES: readonly { readonly href: string; readonly label: string; readonly action: Action }[] = [
  { href: RISK_REVIEWS, label: 'Manual review', action: 'risk.view' },
  { href: RISK_LISTS, label: 'Black- and whitelists', action: 'risk.view' },
  { href: RISK_RULES, label: 'Rule sets', action: 'risk.rules.view' },
];

/** What a refused form comes back with: its messages by field (several for a CSV or a rule set). */
export interface RiskFormState {
  readonly form: string;
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** Values typed that may be shown again: never a card number, an IBAN or a CSV. */
  readonly values: Readonly<Record<string, string>>;
}

export function errorsOf(state: RiskFormState | undefined, form: string, name: string): readonly string[] {
  return state?.form === form ? (state.errors[name] ?? []) : [];
}

export function valueOf(state: RiskFormState | undefined, form: string, name: string, fallback = ''): string {
  return state?.form === form ? (state.values[name] ?? fallback) : fallback;
}

/** The messages of one field, under it, tied to it by aria-describedby (`${id}-error`). */
export function FieldErrors({ id, messages }: { id: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return messages.length === 1
    ? <p id={`${id}-error`} class="field-error">{messages[0]}</p>
    : <ul id={`${id}-error`} class="field-error risk-errors">{messages.map((m, i) => <li key={i}>{m}</li>)}</ul>;
}

export function RiskLayout({ frame, title, children }: { frame: PageFrame; title: string; children: ComponentChildren }) {
  const pages = RISK_PAGES.filter((p) => mayPerform(frame.user.role, p.action));
  return (
    <DeveloperLayout frame={frame} title={title}>
      <nav aria-label="Risk" class="risk-tabs">
        <ul>{pages.map((p) => <li key={p.href}><a href={p.href} aria-current={frame.path === p.href ? 'page' : undefined}>{p.label}</a></li>)}</ul>
      </nav>
      {children}
    </DeveloperLayout>
  );
}

/** Which entity's lists or rules: an operator picks the merchant, then the merchant or one of its channels. */
export function EntityPicker({ action, merchants, merchantId, entities, entityId }: {
  action: string; merchants: readonly { id: string; name: string }[] | undefined; merchantId: string | undefined;
  entities: readonly { id: string; kind: string; name: string }[]; entityId: string | undefined;
}) {
  return (
    <form method="get" action={action} class="risk-picker">
      {merchants ? (
        <div>
          <label for="merchant">Merchant</label>
          <select id="merchant" name="merchant">
            <option value="">Choose a merchant</option>
            {merchants.map((m) => <option key={m.id} value={m.id} selected={m.id === merchantId}>{`${m.name} (${m.id})`}</option>)}
          </select>
        </div>
      ) : null}
      {entities.length > 0 ? (
        <div>
          <label for="entity">Merchant or channel</label>
          <select id="entity" name="entity">
            {entities.map((e) => <option key={e.id} value={e.id} selected={e.id === entityId}>{`${e.name} (${e.kind})`}</option>)}
          </select>
        </div>
      ) : null}
      <div><button type="submit" class="secondary">Show</button></div>
    </form>
  );
}

/** Hidden fields of a change: the CSRF token and the entity (and, for an operator, the merchant) it is about. */
export function EntityFields({ csrfToken, merchantId, entityId }: { csrfToken: string; merchantId: string | undefined; entityId: string }) {
  return (
    <>
      <input type="hidden" name="_csrf" value={csrfToken} />
      {merchantId ? <input type="hidden" name="merchant" value={merchantId} /> : null}
      <input type="hidden" name="entity" value={entityId} />
    </>
  );
}
