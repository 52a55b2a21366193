import { mayPerform } from '../../../domain/access/permissions.js';
import { formatAmount } from '../../../domain/money.js';
import { PENDING_AGES_MINUTES } from '../../../operations/console/pending-queue.js';
import type { QueuedPending } from '../../../storage/repositories/console/pending-queue.js';
import type { ConsoleUser } from '../../console-user.js';
import { Layout } from '../layout.js';

export const PENDING_PATH = '/console/pending';

export interface PendingQueuePageProps {
  readonly user: ConsoleUser;
  readonly system: 'test' | 'live';
  readonly csrfToken: string | undefined;
  readonly now: Date;
  readonly form: Readonly<{ merchant: string; connector: string; olderThan: string }>;
  readonly error: { readonly field: string; readonly message: string } | undefined;
  readonly rows: readonly QueuedPending[];
  readonly limit: number;
  readonly mayChooseMerchant: boolean;
  /** PENDING_CHECK_DELAYS_MINUTES' first value: when the sweep plans the first status check. */
  readonly firstCheckDelayMinutes: number;
}

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** An age as a person reads it: 45 s, 12 min, 3 h 20 min, 2 d 4 h. */
export function ageText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

const AGE_LABELS: Readonly<Record<number, string>> = { 5: 'older than 5 minutes', 60: 'older than an hour', 1440: 'older than a day', 10080: 'older than a week' };

function FilterField({ id, name, label, hint, value, error }: { id: string; name: string; label: string; hint: string; value: string; error: string | undefined }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={name} type="text" autocomplete="off" value={value} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`} />
      <small id={`${id}-hint`} class="hint">{hint}</small>
      {error ? <small id={`${id}-error`} class="field-error">{error}</small> : null}
    </div>
  );
}

function FilterForm({ form, error, mayChooseMerchant }: Pick<PendingQueuePageProps, 'form' | 'error' | 'mayChooseMerchant'>) {
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  const ages = PENDING_AGES_MINUTES.map(String);
  return (
    <form method="get" action={PENDING_PATH} class="search" aria-label="Filter pending payments">
      <div class="filters">
        {mayChooseMerchant ? <FilterField id="f-merchant" name="merchant" label="Merchant id" hint="the merchant and its channels; empty for all" value={form.merchant} error={errorOf('merchant')} /> : null}
        <FilterField id="f-connector" name="connector" label="Connector" hint="e.g. simulator" value={form.connector} error={errorOf('connector')} />
        <div class="field">
          <label for="f-older">Age</label>
          <select id="f-older" name="olderThan" aria-invalid={errorOf('olderThan') ? 'true' : undefined} aria-describedby={errorOf('olderThan') ? 'f-older-error' : undefined}>
            <option value="">any age</option>
            {!ages.includes(form.olderThan) && form.olderThan !== '' ? <option value={form.olderThan} selected>{`older than ${form.olderThan} minutes`}</option> : null}
            {PENDING_AGES_MINUTES.map((m) => <option value={String(m)} selected={form.olderThan === String(m)}>{AGE_LABELS[m]}</option>)}
          </select>
          {errorOf('olderThan') ? <small id="f-older-error" class="field-error">{errorOf('olderThan')}</small> : null}
        </div>
      </div>
      <p class="actions"><button type="submit">Show</button> <a class="button secondary" href={PENDING_PATH}>Clear</a></p>
    </form>
  );
}

/** What the transaction waits on, and when the gateway next asks about it. */
function NextCheck({ row, firstCheckDelayMinutes }: { row: QueuedPending; firstCheckDelayMinutes: number }) {
  if (row.shopperUntil) return <>the shopper, until {utc(row.shopperUntil)}<div class="muted">then the status checks take it</div></>;
  if (row.job?.failedAt) return <>checks given up at {utc(row.job.failedAt)}<div class="muted">{row.job.lastError ?? ''}</div></>;
  if (row.job?.running) return <>being checked now</>;
  if (row.job) return <>{utc(row.job.runAt)}</>;
  return <>not planned yet<div class="muted">{`the sweep plans the first about ${utc(new Date(row.createdAt.getTime() + firstCheckDelayMinutes * 60_000))}`}</div></>;
}

function QueueTable({ rows, now, mayResolve, firstCheckDelayMinutes }: { rows: readonly QueuedPending[]; now: Date; mayResolve: boolean; firstCheckDelayMinutes: number }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Pending payments">
      <table class="payments pending-queue">
        <thead>
          <tr>
            <th scope="col">Age</th><th scope="col">Payment</th><th scope="col" class="number">Amount</th><th scope="col">Channel and connector</th>
            <th scope="col">Next status check</th><th scope="col">Checks so far</th>{mayResolve ? <th scope="col">Resolve</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.transactionId}>
              <td><time dateTime={row.createdAt.toISOString()}>{ageText(now.getTime() - row.createdAt.getTime())}</time><div class="muted">{utc(row.createdAt)}</div></td>
              <td><a href={`/console/payments/${row.transactionId}`}><code>{row.transactionId}</code></a><div class="muted">{`${row.paymentType} ${row.resultCode}`}</div></td>
              <td class="number">{`${formatAmount(row.amountMinor)} ${row.currency}`}</td>
              <td>{row.entityName}<div class="muted">{row.connectorId}</div></td>
              <td><NextCheck row={row} firstCheckDelayMinutes={firstCheckDelayMinutes} /></td>
              <td>{row.attempts === 0 ? 'none' : <>{row.attempts}<div class="muted">{row.lastAnswer ?? ''}</div></>}</td>
              {mayResolve ? <td><a href={`/console/payments/${row.transactionId}#actions`}>Resolve…</a></td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** GET /console/pending: the payments waiting on a connector or a shopper, oldest first. */
export function PendingQueuePage(props: PendingQueuePageProps) {
  return (
    <Layout title="Pending payments" user={props.user} system={props.system} path={PENDING_PATH} csrfToken={props.csrfToken}>
      <p class="hint">Payments whose outcome is not known yet, oldest first: the gateway asks their connector on a back-off schedule until a final answer or the horizon.</p>
      {props.error ? <p class="error" role="alert">Check the field marked below.</p> : null}
      <FilterForm form={props.form} error={props.error} mayChooseMerchant={props.mayChooseMerchant} />
      {props.error ? null : props.rows.length === 0 ? <p>No payment is pending.</p>
        : <QueueTable rows={props.rows} now={props.now} mayResolve={mayPerform(props.user.role, 'payments.resolve-pending')} firstCheckDelayMinutes={props.firstCheckDelayMinutes} />}
      {props.rows.length >= props.limit ? <p class="muted">{`The oldest ${props.limit} are shown: filter to see others.`}</p> : null}
    </Layout>
  );
}
