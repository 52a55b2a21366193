import { formatAmount } from '../../../domain/money.js';
import type { ScheduleFilter } from '../../../operations/console/console-schedules.js';
import { wireTime } from '../../../operations/schedules/schedule-view.js';
import type { ListedSchedule } from '../../../storage/repositories/console/schedule-list.js';
import type { ConsoleUser } from '../../console-user.js';
import { Layout } from '../layout.js';

export const SCHEDULES_PATH = '/console/schedules';

export interface SchedulesListPageProps {
  readonly user: ConsoleUser;
  readonly system: 'test' | 'live';
  readonly csrfToken: string | undefined;
  /** The filter as typed (the query string). */
  readonly form: Readonly<{ status: string; merchant: string }>;
  readonly filter: ScheduleFilter | undefined;
  readonly error: { readonly field: string; readonly message: string } | undefined;
  readonly rows: readonly ListedSchedule[];
  readonly limit: number;
  /** Operators choose a merchant; a merchant's people see theirs only. */
  readonly mayChooseMerchant: boolean;
}

function FilterForm({ form, error, mayChooseMerchant }: Pick<SchedulesListPageProps, 'form' | 'error' | 'mayChooseMerchant'>) {
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  return (
    <form method="get" action={SCHEDULES_PATH} class="search" aria-label="Filter schedules">
      <div class="filters">
        <div class="field">
          <label for="f-status">State</label>
          <select id="f-status" name="status" aria-invalid={errorOf('status') ? 'true' : undefined} aria-describedby={errorOf('status') ? 'f-status-error' : undefined}>
            <option value="active" selected={form.status !== 'ended'}>Active</option>
            <option value="ended" selected={form.status === 'ended'}>Ended</option>
          </select>
          {errorOf('status') ? <small id="f-status-error" class="field-error">{errorOf('status')}</small> : null}
        </div>
        {mayChooseMerchant ? (
          <div class="field">
            <label for="f-merchant">Merchant id</label>
            <input id="f-merchant" name="merchant" type="text" autocomplete="off" value={form.merchant} aria-invalid={errorOf('merchant') ? 'true' : undefined}
              aria-describedby={errorOf('merchant') ? 'f-merchant-hint f-merchant-error' : 'f-merchant-hint'} />
            <small id="f-merchant-hint" class="hint">the merchant and its channels; empty for all</small>
            {errorOf('merchant') ? <small id="f-merchant-error" class="field-error">{errorOf('merchant')}</small> : null}
          </div>
        ) : null}
      </div>
      <p class="actions"><button type="submit">Show</button> <a class="button secondary" href={SCHEDULES_PATH}>Clear</a></p>
    </form>
  );
}

function ScheduleRows({ rows, ended }: { rows: readonly ListedSchedule[]; ended: boolean }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Schedules">
      <table class="payments schedules">
        <thead>
          <tr>
            <th scope="col">{ended ? 'Ended (UTC)' : 'Next fire (UTC)'}</th>
            <th scope="col">Schedule</th>
            <th scope="col">Plan</th>
            <th scope="col" class="number">Amount</th>
            <th scope="col">State</th>
            <th scope="col">Channel</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ schedule: s, entityName }) => (
            <tr key={s.id}>
              <td>{wireTime(ended ? s.endedAt : s.fireAt) ?? ''}{s.clockOffsetMs !== 0 ? <div class="muted">test clock</div> : null}</td>
              <td><a href={`${SCHEDULES_PATH}/${s.id}`}><code>{s.id}</code></a>{s.job['name'] ? <div class="muted">{s.job['name']}</div> : null}</td>
              <td><code>{s.expression}</code> <span class="muted">{s.timeZone}</span></td>
              <td class="number">{`${formatAmount(s.amountMinor)} ${s.currency}`} <span class="muted">{s.paymentType}</span></td>
              <td>{s.status === 'active' ? (s.cancelledAt ? 'active, cancelled' : 'active') : `ended (${s.endReason ?? ''})`}{s.attempt > 0 ? <div class="muted">{`retry ${s.attempt}`}</div> : null}</td>
              <td>{entityName}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** GET /console/schedules: schedules the person may see, active by next fire time or ended. */
export function SchedulesListPage(props: SchedulesListPageProps) {
  const ended = props.filter?.status === 'ended';
  return (
    <Layout title="Schedules" user={props.user} system={props.system} path={SCHEDULES_PATH} csrfToken={props.csrfToken}>
      {props.error ? <p class="error" role="alert">Check the field marked below.</p> : null}
      <FilterForm form={props.form} error={props.error} mayChooseMerchant={props.mayChooseMerchant} />
      {props.error ? null : props.rows.length === 0 ? <p>No schedule matches.</p> : <ScheduleRows rows={props.rows} ended={ended} />}
      {props.rows.length >= props.limit ? <p class="muted">{`The first ${props.limit} are shown: choose a merchant to see others.`}</p> : null}
    </Layout>
  );
}
