import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { countJobs, listTroubledJobs } from '../../operations/operator/job-queue.js';
import { retryJobAsOperator, retryJobsOfKindAsOperator } from '../../operations/operator/jobs.js';
import { loadSystemStatus } from '../../operations/operator/system-status.js';
import { consoleActor } from '../console-actor.js';
import { fieldOf, frameOf, sendRefusal } from '../pages/developers/developer-request.js';
import { JOBS, JobsPage } from '../pages/operator/jobs-page.js';
import { OPERATOR, OperatorIndexPage } from '../pages/operator/operator-index-page.js';
import { SystemStatusPage } from '../pages/operator/system-status-page.js';
import { sendPage } from '../render.js';
import '../route-config.js';

const STATUS = `${OPERATOR}/status`;

/** A change of the area: a refusal (an unknown or not failed job) is answered as a page. */
function guarded<R extends FastifyRequest<any>>(back: { href: string; label: string }, handler: (request: R, reply: FastifyReply) => Promise<FastifyReply>) {
  return async (request: R, reply: FastifyReply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      return sendRefusal(request, reply, error, back);
    }
  };
}

async function showJobs(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { storage, clock } = request.server.gateway;
  const kind = fieldOf(request.query, 'kind') || undefined;
  const counts = await countJobs(storage, clock.now());
  const troubled = await listTroubledJobs(storage, kind);
  const done = fieldOf(request.query, 'done') || undefined;
  return sendPage(reply, <JobsPage frame={frameOf(request, JOBS)} counts={counts} troubled={troubled} kind={kind} done={done} />);
}

/**
 * The operator's index, the system status and the background jobs (issue 32): operators only.
 * Retrying is audited (jobs.retry, jobs.retry-kind) in the transaction that makes the job due.
 */
export function registerOperatorStatus(app: FastifyInstance): void {
  app.get(OPERATOR, { config: { console: 'system.view' } }, async (request, reply) => sendPage(reply, <OperatorIndexPage frame={frameOf(request, OPERATOR)} />));
  app.get(STATUS, { config: { console: 'system.view' } }, async (request, reply) => {
    const status = await loadSystemStatus(request.server.gateway);
    return sendPage(reply.header('cache-control', 'no-store'), <SystemStatusPage frame={frameOf(request, STATUS)} status={status} />);
  });
  app.get(JOBS, { config: { console: 'jobs.view' } }, showJobs);
  const retry = { config: { console: 'jobs.retry' as const } };
  const back = { href: JOBS, label: 'Back to the jobs' };
  app.post<{ Params: { jobId: string } }>(`${JOBS}/:jobId/retry`, retry, guarded(back, async (request, reply) => {
    await retryJobAsOperator(request.server.gateway, consoleActor(request), request.params.jobId);
    return reply.redirect(`${JOBS}?done=retried`, 303);
  }));
  app.post(`${JOBS}/retry-kind`, retry, guarded(back, async (request, reply) => {
    const retried = await retryJobsOfKindAsOperator(request.server.gateway, consoleActor(request), fieldOf(request.body, 'kind'));
    return reply.redirect(`${JOBS}?done=retried-${retried.retried}`, 303);
  }));
}
