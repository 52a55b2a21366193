import { mayPerform } from '../../../domain/access/permissions.js';
import type { listRiskReviews } from '../../../operations/risk/review-payment.js';
import type { ReviewQueueRow } from '../../../storage/repositories/risk-reviews.js';
import { formatTime, type PageFrame, TableWrap } from '../developers/developer-request.js';
import { money, paymentHref } from '../payment-detail/format.js';
import { errorsOf, FieldErrors, RISK_REVIEWS, RiskLayout, type RiskFormState, valueOf } from './risk-common.js';

type Reviews = Awaited<ReturnType<typeof listRiskReviews>>;

interface ReviewsProps {
  readonly frame: PageFrame;
  readonly reviews: Reviews;
  readonly now: Date;
  /** Operators see which rules fired; a merchant's people the score (as the payment's answer gives it). */
  readonly showRules: boolean;
  readonly state?: RiskFormState | undefined;
  readonly done?: string | undefined;
}

/** How long a payment has waited: "3 d 4 h", "2 h 5 min", "12 min". */
export function age(since: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

function firedNames(fired: unknown): string {
  if (!Array.isArray(fired) || fired.length === 0) return '—';
  return fired.map((r: { rule?: unknown }) => String(r.rule)).join(', ');
}

const DONE: Readonly<Record<string, string>> = {
  accept: 'Accepted: the payment stands.',
  reject: 'Rejected: the payment was reversed.',
  'reject-refused': 'Rejected, but the connector refused the reversal: refund the payment from its page.',
};

export function RiskReviewsPage({ frame, reviews, now, showRules, state, done }: ReviewsProps) {
  const mayDecide = mayPerform(frame.user.role, 'risk.review');
  return (
    <RiskLayout frame={frame} title="Manual review">
      {done && DONE[done] ? <p class={`flash flash-${done === 'reject-refused' ? 'refused' : 'success'}`} role="status">{DONE[done]}</p> : null}
      {state ? (
        <div class="flash flash-refused" role="alert">
          <p>Nothing was decided:</p>
          <ul>{Object.values(state.errors).flat().map((m, i) => <li key={i}>{m}</li>)}</ul>
        </div>
      ) : null}
      <p class="muted">Payments the risk rules sent to review (answered <code>000.400.000</code>) that went through, oldest first. Accept: the payment stands (a preauthorization can be captured as usual). Reject: the whole payment is reversed, before anything of it was captured or refunded and within the connector's reversal period.</p>
      <h2>{`Waiting (${reviews.waiting.length})`}</h2>
      {reviews.waiting.length === 0 ? <p>No payment is waiting for a review.</p> : (
        <TableWrap label="Payments waiting for a review">
          <table>
            <caption class="visually-hidden">Payments waiting for a review, oldest first</caption>
            <thead><tr><th scope="col">Payment</th><th scope="col">For</th><th scope="col" class="number">Amount</th><th scope="col">Card</th><th scope="col" class="number">Score</th>{showRules ? <th scope="col">Rules fired</th> : null}<th scope="col">Waiting</th>{mayDecide ? <th scope="col">Decision</th> : null}</tr></thead>
            <tbody>
              {reviews.waiting.map((row) => (
                <tr key={row.transactionId}>
                  <td data-label="Payment"><a href={paymentHref(row.transactionId)}>{`${row.paymentType} ${row.transactionId.slice(0, 8)}…`}</a></td>
                  <td data-label="For" class="wrap">{row.entityName}</td>
                  <td data-label="Amount" class="number">{money(row.amountMinor, row.currency)}</td>
                  <td data-label="Card">{row.card.bin && row.card.last4 ? `${row.card.bin}…${row.card.last4}` : '—'}</td>
                  <td data-label="Score" class="number">{row.score}</td>
                  {showRules ? <td data-label="Rules fired" class="wrap">{firedNames(row.fired)}</td> : null}
                  <td data-label="Waiting"><time dateTime={row.createdAt.toISOString()} title={formatTime(row.createdAt)}>{age(row.createdAt, now)}</time></td>
                  {mayDecide ? <td data-label="Decision"><DecisionForm frame={frame} row={row} state={state} /></td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <Decided reviews={reviews} />
    </RiskLayout>
  );
}

function DecisionForm({ frame, row, state }: { frame: PageFrame; row: ReviewQueueRow; state: RiskFormState | undefined }) {
  const form = `review-${row.transactionId}`;
  const id = `reason-${row.transactionId}`;
  const errors = [...errorsOf(state, form, 'reason'), ...errorsOf(state, form, 'decision'), ...errorsOf(state, form, 'transaction'), ...errorsOf(state, form, 'amount')];
  return (
    <form method="post" action={`${RISK_REVIEWS}/${row.transactionId}`} class="risk-decision">
      <input type="hidden" name="_csrf" value={frame.csrfToken} />
      <label for={id}>Reason</label>
      <input id={id} name="reason" required minLength={3} maxLength={500} autoComplete="off" value={valueOf(state, form, 'reason')}
        aria-invalid={errors.length > 0 ? 'true' : undefined} aria-describedby={errors.length > 0 ? `${id}-error` : undefined} />
      <FieldErrors id={id} messages={errors} />
      <div class="risk-decision-buttons">
        <button type="submit" name="decision" value="accept">Accept</button>
        <button type="submit" name="decision" value="reject" class="danger">Reject and reverse</button>
      </div>
    </form>
  );
}

function Decided({ reviews }: { reviews: Reviews }) {
  if (reviews.decided.length === 0) return null;
  return (
    <section aria-labelledby="decided">
      <h2 id="decided">Decided lately</h2>
      <TableWrap label="Decided reviews">
        <table>
          <caption class="visually-hidden">The latest review decisions, newest first</caption>
          <thead><tr><th scope="col">Payment</th><th scope="col">Decision</th><th scope="col">Reason</th><th scope="col">By</th><th scope="col">When</th></tr></thead>
          <tbody>
            {reviews.decided.map((d) => (
              <tr key={d.transactionId}>
                <td data-label="Payment"><a href={paymentHref(d.transactionId)}>{`${d.transactionId.slice(0, 8)}…`}</a></td>
                <td data-label="Decision">{d.decision}{d.reversalId ? <> (<a href={paymentHref(d.reversalId)}>reversal</a>)</> : null}</td>
                <td data-label="Reason" class="wrap">{d.reason}</td>
                <td data-label="By" class="wrap">{d.decidedBy}</td>
                <td data-label="When">{formatTime(d.decidedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}
