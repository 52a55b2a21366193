import type { OverviewForm } from '../../../domain/overview/overview-period.js';

export interface FormError {
  readonly field: keyof OverviewForm;
  readonly message: string;
}

const PERIODS: readonly [string, string][] = [['today', 'Today'], ['7d', 'Last 7 days'], ['30d', 'Last 30 days'], ['custom', 'Custom (from–to)']];

function ErrorFor({ field, errors }: { field: keyof OverviewForm; errors: readonly FormError[] }) {
  const error = errors.find((e) => e.field === field);
  return error ? <small id={`o-${field}-error`} class="field-error">{error.message}</small> : null;
}

const invalid = (field: keyof OverviewForm, errors: readonly FormError[]) =>
  errors.some((e) => e.field === field) ? { 'aria-invalid': 'true' as const, 'aria-describedby': `o-${field}-error` } : {};

/**
 * The period (and, for operators, the merchant): a GET form, so a period is a link to share and
 * needs no CSRF token (it changes nothing).
 */
export function PeriodForm({ form, errors, merchants, operator }: { form: OverviewForm; errors: readonly FormError[]; merchants: readonly { id: string; name: string }[] | undefined; operator: boolean }) {
  return (
    <form method="get" action="/console/overview" class="overview-period">
      <div class="field">
        <label for="o-period">Period</label>
        <select id="o-period" name="period" {...invalid('period', errors)}>
          {PERIODS.map(([value, label]) => <option value={value} selected={form.period === value}>{label}</option>)}
        </select>
        <ErrorFor field="period" errors={errors} />
      </div>
      <div class="field">
        <label for="o-from">From</label>
        <input id="o-from" name="from" type="date" value={form.from} {...invalid('from', errors)} />
        <ErrorFor field="from" errors={errors} />
      </div>
      <div class="field">
        <label for="o-to">To (inclusive)</label>
        <input id="o-to" name="to" type="date" value={form.to} {...invalid('to', errors)} />
        <ErrorFor field="to" errors={errors} />
      </div>
      {operator ? (
        <div class="field">
          <label for="o-merchant">Merchant</label>
          {merchants ? (
            <select id="o-merchant" name="merchant" {...invalid('merchant', errors)}>
              <option value="">All merchants</option>
              {merchants.map((m) => <option value={m.id} selected={form.merchant === m.id}>{m.name}</option>)}
            </select>
          ) : (
            <input id="o-merchant" name="merchant" value={form.merchant} autocomplete="off" {...invalid('merchant', errors)} />
          )}
          <ErrorFor field="merchant" errors={errors} />
        </div>
      ) : null}
      <div class="field">
        <button type="submit">Show</button>
      </div>
      <p class="hint overview-hint">Days are UTC days. From and To apply to a custom period.</p>
    </form>
  );
}
