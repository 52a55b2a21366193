import { mayPerform } from '../../../domain/access/permissions.js';
import { JOB_STATES, type JobCounts, type JobState, type TroubledJob } from '../../../operations/operator/job-queue.js';
import { FormBasics, formatTime, type PageFrame, TableWrap } from '../developers/developer-request.js';
import { Done, OPERATOR, OperatorLayout } from './operator-index-page.js';

export const JOBS = `${OPERATOR}/jobs`;

const STATE_TITLES: Readonly<Record<JobState, string>> = { due: 'Due', later: 'Later', running: 'Running', failing: 'Failing', 'given-up': 'Given up' };

export interface JobsPageProps {
  readonly frame: PageFrame;
  readonly counts: readonly JobCounts[];
  readonly troubled: readonly TroubledJob[];
  readonly kind: string | undefined;
  readonly done: string | undefined;
}

function CountsTable({ counts, frame }: { counts: readonly JobCounts[]; frame: PageFrame }) {
  const mayRetry = mayPerform(frame.user.role, 'jobs.retry');
  if (counts.length === 0) return <p>The queue is empty.</p>;
  return (
    <TableWrap label="Jobs by kind and state">
      <table>
        <caption class="visually-hidden">Jobs by kind and state</caption>
        <thead><tr><th scope="col">Kind</th>{JOB_STATES.map((s) => <th key={s} scope="col">{STATE_TITLES[s]}</th>)}<th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {counts.map((row) => {
            const troubled = row.counts.failing + row.counts['given-up'];
            return (
              <tr key={row.kind}>
                <td data-label="Kind">{troubled > 0 ? <a href={`${JOBS}?kind=${encodeURIComponent(row.kind)}`}>{row.kind}</a> : row.kind}</td>
                {JOB_STATES.map((s) => <td key={s} data-label={STATE_TITLES[s]} class={(s === 'given-up' || s === 'failing') && row.counts[s] > 0 ? 'error' : undefined}>{row.counts[s]}</td>)}
                <td data-label="Actions">
                  {mayRetry && troubled > 0 ? (
                    <form method="post" action={`${JOBS}/retry-kind`} class="inline">
                      <FormBasics csrfToken={frame.csrfToken} />
                      <input type="hidden" name="kind" value={row.kind} />
                      <button type="submit" class="secondary">{`Retry all ${troubled}`}<span class="visually-hidden">{` ${row.kind} jobs`}</span></button>
                    </form>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}

function TroubledTable({ jobs, frame }: { jobs: readonly TroubledJob[]; frame: PageFrame }) {
  const mayRetry = mayPerform(frame.user.role, 'jobs.retry');
  if (jobs.length === 0) return <p>No job has failed.</p>;
  return (
    <TableWrap label="Failed jobs">
      <table>
        <caption class="visually-hidden">Failed jobs</caption>
        <thead><tr><th scope="col">Job</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col">Failures</th><th scope="col">Last error</th><th scope="col">Next try</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.jobId}>
              <td data-label="Job">{job.jobId}</td>
              <td data-label="Kind">{job.kind}</td>
              <td data-label="State" class="error">{STATE_TITLES[job.state]}{job.failedAt ? <><br /><span class="muted">{formatTime(job.failedAt)}</span></> : null}</td>
              <td data-label="Failures">{job.failureCount}</td>
              <td data-label="Last error" class="wrap"><code>{job.lastError || '—'}</code></td>
              <td data-label="Next try">{job.state === 'given-up' ? 'never (given up)' : formatTime(job.nextRunAt)}</td>
              <td data-label="Actions">
                {mayRetry ? (
                  <form method="post" action={`${JOBS}/${job.jobId}/retry`} class="inline">
                    <FormBasics csrfToken={frame.csrfToken} />
                    <button type="submit" class="secondary">Retry now<span class="visually-hidden">{` job ${job.jobId}`}</span></button>
                  </form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function doneText(done: string | undefined): string | undefined {
  if (done === undefined) return undefined;
  const all = /^retried-(\d+)$/.exec(done);
  if (all) return `${all[1]} jobs will run again now, with a fresh count of failures.`;
  return done === 'retried' ? 'The job will run again now, with a fresh count of failures.' : undefined;
}

/** The queue by kind and state, the failed jobs with their last error, and retry (one, or all of a kind). */
export function JobsPage({ frame, counts, troubled, kind, done }: JobsPageProps) {
  return (
    <OperatorLayout frame={frame} title="Background jobs">
      <Done text={doneText(done)} />
      <p class="hint">Due: waiting for a worker now. Later: planned (a webhook's next attempt, tomorrow's settlement). Failing: failed and waiting for its next try. Given up: failed too often, never run again unless retried.</p>
      <CountsTable counts={counts} frame={frame} />
      <h2>{kind ? `Failed ${kind} jobs` : 'Failed jobs'}</h2>
      {kind ? <p><a href={JOBS}>Every kind</a></p> : null}
      <TroubledTable jobs={troubled} frame={frame} />
    </OperatorLayout>
  );
}
