import { mayPerform, type Action } from '../../../domain/access/permissions.js';
import type { Role } from '../../../domain/access/roles.js';
import type { ConsoleUser } from '../../console-user.js';

export const SETTLEMENT_PATH = '/console/settlement';
export const CHARGEBACKS_PATH = '/console/settlement/chargebacks';
export const DELIVERY_PATH = '/console/settlement/delivery';

/** The filter as typed (the query string), shown back as it was. */
export type SettlementForm = Readonly<{ from: string; to: string; currency: string; merchant: string }>;
export type FieldError = { readonly field: string; readonly message: string } | undefined;

export interface SettlementListProps {
  readonly user: ConsoleUser;
  readonly system: 'test' | 'live';
  readonly csrfToken: string | undefined;
  readonly form: SettlementForm;
  readonly error: FieldError;
  readonly limit: number;
  /** Operators choose a merchant; a merchant's people see theirs only. */
  readonly mayChooseMerchant: boolean;
}

function Field({ id, name, label, hint, value, error }: { id: string; name: string; label: string; hint: string; value: string; error: string | undefined }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={name} type="text" autocomplete="off" value={value} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`} />
      <small id={`${id}-hint`} class="hint">{hint}</small>
      {error ? <small id={`${id}-error`} class="field-error">{error}</small> : null}
    </div>
  );
}

/** Settlement days from..to, a currency and (operators) a merchant: the same filter for batches and chargebacks. */
export function SettlementFilterForm({ action, label, form, error, mayChooseMerchant }: { action: string; label: string; form: SettlementForm; error: FieldError; mayChooseMerchant: boolean }) {
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  return (
    <form method="get" action={action} class="search" aria-label={label}>
      <div class="filters">
        <Field id="f-from" name="from" label="From" hint="settlement day, yyyy-MM-dd; empty: 30 days back" value={form.from} error={errorOf('from')} />
        <Field id="f-to" name="to" label="To" hint="settlement day, inclusive; empty: today" value={form.to} error={errorOf('to')} />
        <Field id="f-currency" name="currency" label="Currency" hint="settlement currency, e.g. EUR" value={form.currency} error={errorOf('currency')} />
        {mayChooseMerchant ? <Field id="f-merchant" name="merchant" label="Merchant id" hint="empty for every merchant" value={form.merchant} error={errorOf('merchant')} /> : null}
      </div>
      <p class="actions"><button type="submit">Show</button> <a class="button secondary" href={action}>Clear</a></p>
    </form>
  );
}

/** A refused filter: the field is marked in the form; a field the form does not show (a merchant's person choosing a merchant) is named here. */
export function FilterRefusal({ error, mayChooseMerchant }: { error: FieldError; mayChooseMerchant: boolean }) {
  if (!error) return null;
  const shown = error.field !== 'merchant' || mayChooseMerchant;
  return <p class="error" role="alert">{shown ? 'Check the field marked below.' : `${error.field}: ${error.message}.`}</p>;
}

const SETTLEMENT_TABS: readonly { readonly key: 'batches' | 'chargebacks' | 'delivery'; readonly href: string; readonly label: string; readonly action: Action }[] = [
  { key: 'batches', href: SETTLEMENT_PATH, label: 'Batches', action: 'settlement.view' },
  { key: 'chargebacks', href: CHARGEBACKS_PATH, label: 'Chargebacks', action: 'settlement.view' },
  { key: 'delivery', href: DELIVERY_PATH, label: 'File delivery', action: 'settlement.delivery.view' },
];

/** The area's pages the role may open, each a link to the others. */
export function SettlementTabs({ current, role }: { current: 'batches' | 'chargebacks' | 'delivery'; role: Role }) {
  return (
    <nav class="settlement-tabs" aria-label="Settlement">
      {SETTLEMENT_TABS.filter((tab) => mayPerform(role, tab.action)).map((tab) => (
        <a key={tab.key} href={tab.href} aria-current={current === tab.key ? 'page' : undefined}>{tab.label}</a>
      ))}
    </nav>
  );
}
