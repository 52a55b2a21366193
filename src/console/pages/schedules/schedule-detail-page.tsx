import type { ComponentChildren } from 'preact';
import { formatAmount } from '../../../domain/money.js';
import type { ConsoleScheduleDetail } from '../../../operations/console/console-schedules.js';
import { wireTime } from '../../../operations/schedules/schedule-view.js';
import type { ConsoleUser } from '../../console-user.js';
import { Layout } from '../layout.js';
import { SCHEDULES_PATH } from './schedules-list-page.js';
import { FORM_FIELDS, ScheduleActions, type ScheduleFormState } from './schedule-actions.js';

export interface ScheduleDetailPageProps {
  readonly detail: ConsoleScheduleDetail;
  readonly user: ConsoleUser;
  readonly system: 'test' | 'live';
  readonly csrfToken: string;
  readonly flash: { readonly kind: 'success' | 'refused'; readonly message: string } | undefined;
  readonly formState: ScheduleFormState | undefined;
}

const at = (date: Date | null | undefined) => (date ? `${wireTime(date)} UTC` : '—');

/** How far a test clock runs ahead: 143 d 6 h, 5 h 20 min, 42 s. */
function offsetText(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const [days, hours, minutes] = [Math.floor(seconds / 86_400), Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60];
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return minutes > 0 ? `${minutes} min` : `${seconds} s`;
}

function Facts({ detail }: { detail: ConsoleScheduleDetail }) {
  const s = detail.schedule;
  const facts: Array<[string, ComponentChildren]> = [
    ['State', s.status === 'active' ? (s.cancelledAt ? `active, cancelled at ${at(s.cancelledAt)}: runs until its end` : 'active') : `ended: ${s.endReason ?? ''} at ${at(s.endedAt)}`],
    ['Channel', detail.entityName],
    ['Amount', `${formatAmount(s.amountMinor)} ${s.currency}, ${s.paymentType} each run`],
    ['Plan', <><code>{s.expression}</code> in {s.timeZone}</>],
    ['Starts', at(s.startsAt)],
    ['Ends', at(s.endsAt)],
    ['Registration', <code>{s.registrationId}</code>],
    ['Created by', <a href={`/console/payments/${s.id}`}>{`the ${s.response['paymentType'] === 'RS' ? 'RS' : 'SD'} transaction`}</a>],
  ];
  if (s.job['name']) facts.push(['Name', s.job['name']]);
  if (s.replacedBy) facts.push(['Replaced by', <a href={`${SCHEDULES_PATH}/${s.replacedBy}`}><code>{s.replacedBy}</code></a>]);
  if (s.clockOffsetMs !== 0) facts.push(['Test clock', `${offsetText(s.clockOffsetMs)} ahead of the real time`]);
  if (s.attempt > 0) facts.push(['Retry', `attempt ${s.attempt} of the firing at ${at(s.fireAt)}`]);
  return <dl class="payment-facts">{facts.map(([term, value]) => <div key={term}><dt>{term}</dt><dd>{value}</dd></div>)}</dl>;
}

function Upcoming({ detail }: { detail: ConsoleScheduleDetail }) {
  if (detail.upcoming.length === 0) return <p>{detail.schedule.status === 'active' ? 'No fire time is left before the end.' : 'The schedule has ended: nothing is coming.'}</p>;
  return (
    <>
      <ol class="fire-times">{detail.upcoming.map((date) => <li><time dateTime={date.toISOString()}>{`${wireTime(date)} UTC`}</time></li>)}</ol>
      {detail.schedule.clockOffsetMs !== 0 ? <p class="hint">In the schedule's own time: its test clock runs ahead of the real time.</p> : null}
    </>
  );
}

function Runs({ detail }: { detail: ConsoleScheduleDetail }) {
  if (detail.runs.length === 0) return <p>No run yet.</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Runs">
      <table class="payments">
        <thead><tr><th scope="col">Fire time (UTC)</th><th scope="col">Attempt</th><th scope="col">Outcome</th><th scope="col">Payment</th><th scope="col">Result</th><th scope="col">Made at (UTC)</th></tr></thead>
        <tbody>
          {detail.runs.map((run) => (
            <tr key={`${run.fireAt.toISOString()}-${run.attempt}`}>
              <td>{wireTime(run.fireAt)}</td>
              <td>{run.attempt === 0 ? 'first' : `retry ${run.attempt}`}</td>
              <td><span class={`status status-run-${run.outcome}`}>{run.outcome}</span></td>
              <td>{run.transactionId ? <a href={`/console/payments/${run.transactionId}`}><code>{run.transactionId}</code></a> : '—'}</td>
              <td>{run.resultCode ?? ''}</td>
              <td>{wireTime(run.ranAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What the form came to, above the page: a field's message is shown beside the field too; others (the schedule ended meanwhile) only here. */
function FormErrors({ state }: { state: ScheduleFormState }) {
  const general = Object.entries(state.errors).filter(([name]) => !FORM_FIELDS[state.action].includes(name));
  return (
    <div class="error" role="alert">
      {general.length < Object.keys(state.errors).length ? <p>Check the form marked below.</p> : null}
      {general.map(([name, message]) => <p key={name}>{message}</p>)}
    </div>
  );
}

/** GET /console/schedules/:id: the schedule, its next fire times, its runs, and the changes the role allows. */
export function ScheduleDetailPage(props: ScheduleDetailPageProps) {
  const { detail, flash } = props;
  const s = detail.schedule;
  return (
    <Layout title={`Schedule ${formatAmount(s.amountMinor)} ${s.currency}`} user={props.user} system={props.system} path={`${SCHEDULES_PATH}/${s.id}`} csrfToken={props.csrfToken}>
      <p class="muted"><a href={SCHEDULES_PATH}>All schedules</a> · <code>{s.id}</code></p>
      {flash ? <p class={`flash flash-${flash.kind}`} role={flash.kind === 'refused' ? 'alert' : 'status'}>{flash.message}</p> : null}
      {props.formState ? <FormErrors state={props.formState} /> : null}
      <Facts detail={detail} />
      <section aria-labelledby="upcoming"><h2 id="upcoming">Next fire times</h2><Upcoming detail={detail} /></section>
      <section aria-labelledby="runs"><h2 id="runs">Runs</h2><Runs detail={detail} /></section>
      <section aria-labelledby="schedule-actions">
        <h2 id="schedule-actions">Actions</h2>
        <ScheduleActions schedule={s} role={props.user.role} system={props.system} csrfToken={props.csrfToken} state={props.formState} />
      </section>
    </Layout>
  );
}
