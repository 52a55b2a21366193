import { mayPerform } from '../../../domain/access/permissions.js';
import type { PaymentDetail } from '../../../operations/console/load-payment-detail.js';
import type { ConsoleUser } from '../../console-user.js';
import { Layout } from '../layout.js';
import type { ActionFormState } from './action-form.js';
import { FamilyTree } from './family-tree.js';
import { money, paymentHref } from './format.js';
import { NotificationList } from './notification-list.js';
import { PaymentActions } from './payment-actions.js';
import { PaymentSummaryFacts } from './payment-summary.js';
import { TimelineList } from './timeline-list.js';

/** What the last action came to, shown once after its redirect. */
export interface Flash {
  readonly kind: 'success' | 'refused';
  readonly message: string;
}

export interface PaymentDetailPageProps {
  readonly detail: PaymentDetail;
  readonly user: ConsoleUser;
  readonly system: 'test' | 'live';
  readonly path: string;
  readonly csrfToken: string;
  readonly nonce: () => string;
  readonly flash?: Flash | undefined;
  /** A form sent back with its field messages. */
  readonly formState?: ActionFormState | undefined;
}

/** What was wrong with the form sent back, at the top (its form may no longer apply: a stale page). */
function FormErrors({ state }: { state: ActionFormState }) {
  return (
    <div class="flash flash-refused" role="alert">
      <p>Nothing was done: the form has errors.</p>
      <ul>
        {Object.entries(state.errors).map(([name, message]) => <li key={name}>{`${name}: ${message}`}</li>)}
      </ul>
    </div>
  );
}

function SettlementList({ detail }: { detail: PaymentDetail }) {
  if (detail.settlement.length === 0) return <p>No settlement record matched yet.</p>;
  return (
    <ul>
      {detail.settlement.map((s, index) => (
        <li key={index}>
          {`${s.recordType} ${s.status} on ${s.settlementDate}, batch ${s.batchId}: ${money(s.amountMinor, s.currency)}, fee ${money(s.feeMinor, s.feeCurrency)}, ${s.matchingStatus.toLowerCase().replace('_', ' ')}`}
        </li>
      ))}
    </ul>
  );
}

function Related({ detail, maySeeSchedules }: { detail: PaymentDetail; maySeeSchedules: boolean }) {
  const { schedule, registrations } = detail;
  if (!schedule && registrations.length === 0) return null;
  return (
    <section aria-labelledby="related">
      <h2 id="related">Schedule and registrations</h2>
      <ul>
        {schedule ? (
          <li>
            Schedule <a href={maySeeSchedules ? `/console/schedules/${schedule.id}` : paymentHref(schedule.id)}>{schedule.id}</a>: {schedule.status}{schedule.endReason ? ` (${schedule.endReason})` : ''},{' '}
            <code>{schedule.expression}</code> {schedule.timeZone}, {schedule.runs.length} run(s)
          </li>
        ) : null}
        {registrations.map((r) => (
          <li key={r.id}>{`Registration ${r.id} (${r.paymentBrand}, ${r.status}): ${r.createdByPayment ? 'created by this payment' : 'paid with'}`}</li>
        ))}
      </ul>
    </section>
  );
}

/** GET /console/payments/:id: the payment, its family, what happened, its notifications, and the actions the role allows. */
export function PaymentDetailPage(props: PaymentDetailPageProps) {
  const { detail, user, flash } = props;
  const id = detail.payment.id;
  const context = { paymentId: id, csrfToken: props.csrfToken, nonce: props.nonce, state: props.formState };
  return (
    <Layout title={`Payment ${detail.payment.paymentType} ${money(detail.payment.amountMinor, detail.payment.currency)}`} user={user} system={props.system} path={props.path} csrfToken={props.csrfToken}>
      <p class="muted"><a href="/console/payments">All payments</a> · <code>{id}</code></p>
      {flash ? <p class={`flash flash-${flash.kind}`} role={flash.kind === 'refused' ? 'alert' : 'status'}>{flash.message}</p> : null}
      {props.formState ? <FormErrors state={props.formState} /> : null}
      <PaymentSummaryFacts payment={detail.payment} />
      <section aria-labelledby="actions">
        <h2 id="actions">Actions</h2>
        <PaymentActions payment={detail.payment} role={user.role} context={context} />
      </section>
      <section aria-labelledby="family">
        <h2 id="family">Family</h2>
        <FamilyTree family={detail.family} currentId={id} />
      </section>
      <section aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        <TimelineList events={mayPerform(user.role, 'notifications.view') ? detail.timeline : detail.timeline.filter((e) => e.kind !== 'notification' && e.kind !== 'attempt')} currentId={id} />
      </section>
      {mayPerform(user.role, 'notifications.view') ? (
        <section aria-labelledby="notifications">
          <h2 id="notifications">Notifications</h2>
          <NotificationList deliveries={detail.deliveries} currentId={id} mayResend={mayPerform(user.role, 'notifications.resend')} context={context} />
        </section>
      ) : null}
      <section aria-labelledby="settlement">
        <h2 id="settlement">Settlement</h2>
        <SettlementList detail={detail} />
      </section>
      <Related detail={detail} maySeeSchedules={mayPerform(user.role, 'schedules.view')} />
    </Layout>
  );
}
