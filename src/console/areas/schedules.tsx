import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { isOperatorRole } from '../../domain/access/roles.js';
import type { ConsoleActor } from '../../operations/console/console-action.js';
import { listSchedulesForConsole, loadScheduleForConsole, parseScheduleFilter, SCHEDULE_LIST_ROWS } from '../../operations/console/console-schedules.js';
import { advanceFromConsole, descheduleFromConsole, rescheduleFromConsole } from '../../operations/console/schedule-changes-from-console.js';
import type { ScheduleDeps } from '../../operations/schedules/schedule-deps.js';
import { GatewayError } from '../../results/gateway-error.js';
import { consoleActor } from '../console-actor.js';
import { formField } from '../form-fields.js';
import { Layout } from '../pages/layout.js';
import { FORM_FIELDS, type ScheduleActionName, type ScheduleFormState } from '../pages/schedules/schedule-actions.js';
import { ScheduleDetailPage } from '../pages/schedules/schedule-detail-page.js';
import { SCHEDULES_PATH, SchedulesListPage } from '../pages/schedules/schedules-list-page.js';
import { sendPage } from '../render.js';
import '../route-config.js';

type Params = { Params: { id: string }; Querystring: Record<string, string | undefined> };

const DONE: Readonly<Record<ScheduleActionName, string>> = {
  reschedule: 'Rescheduled: this is the new schedule; the old one ended.',
  deschedule: 'Descheduled: no run will be made after the schedule\'s end shown here.',
  advance: 'The test clock moved: the fire times up to then are being made by the job runner.',
};

const isAction = (value: string | undefined): value is ScheduleActionName => value !== undefined && Object.hasOwn(DONE, value);

function actorOf(request: FastifyRequest): ConsoleActor {
  return { actor: consoleActor(request) as ConsoleActor['actor'], visibility: visibilityOf(request.consoleUser!) };
}

function isNotFound(error: unknown): boolean {
  return error instanceof GatewayError && error.code === '700.400.580' && error.httpStatus === 404;
}

function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendPage(reply, (
    <Layout title="No such schedule" user={request.consoleUser} system={request.server.gateway.config.system} path={request.url} csrfToken={request.consoleCsrfToken}>
      <p>There is no schedule with this id that you may see. <a href={SCHEDULES_PATH}>All schedules</a>.</p>
    </Layout>
  ), 404);
}

async function showList(request: FastifyRequest<{ Querystring: Record<string, unknown> }>, reply: FastifyReply): Promise<FastifyReply> {
  const user = request.consoleUser!;
  const visibility = visibilityOf(user);
  const text = (name: string) => (typeof request.query[name] === 'string' ? String(request.query[name]) : '');
  const props = { user, system: request.server.gateway.config.system, csrfToken: request.consoleCsrfToken, form: { status: text('status'), merchant: text('merchant') }, limit: SCHEDULE_LIST_ROWS, mayChooseMerchant: isOperatorRole(user.role) };
  try {
    const filter = parseScheduleFilter(request.query, visibility);
    const rows = await listSchedulesForConsole(request.server.gateway, visibility, filter);
    return sendPage(reply, <SchedulesListPage {...props} filter={filter} error={undefined} rows={rows} />);
  } catch (error) {
    const refused = error instanceof GatewayError ? error.parameterErrors?.[0] : undefined;
    if (!refused) throw error;
    return sendPage(reply, <SchedulesListPage {...props} filter={undefined} error={{ field: refused.name, message: refused.message }} rows={[]} />, 400);
  }
}

async function showDetail(request: FastifyRequest<Params>, reply: FastifyReply, formState?: ScheduleFormState): Promise<FastifyReply> {
  const gateway = request.server.gateway;
  let detail;
  try {
    detail = await loadScheduleForConsole(gateway, visibilityOf(request.consoleUser!), request.params.id);
  } catch (error) {
    if (isNotFound(error)) return sendNotFound(request, reply);
    throw error;
  }
  const done = request.query['done'];
  const flash = !formState && isAction(done) ? { kind: 'success' as const, message: DONE[done] } : undefined;
  return sendPage(reply, (
    <ScheduleDetailPage detail={detail} user={request.consoleUser!} system={gateway.config.system} csrfToken={request.consoleCsrfToken ?? ''} flash={flash} formState={formState} />
  ), formState ? 400 : 200);
}

/** A refusal of the form's content re-renders the page with the messages; a foreign or missing id is a 404. */
function answerError(request: FastifyRequest<Params>, reply: FastifyReply, action: ScheduleActionName, error: unknown): Promise<FastifyReply> | FastifyReply {
  if (isNotFound(error)) return sendNotFound(request, reply);
  if (!(error instanceof GatewayError) || !error.parameterErrors) throw error;
  const values = Object.fromEntries(FORM_FIELDS[action].map((name) => [name, formField(request, name)]));
  const errors: Record<string, string> = {};
  for (const p of error.parameterErrors) errors[p.name] ??= `${p.message} (${error.code})`;
  return showDetail(request, reply, { action, values, errors });
}

function registerChange(app: FastifyInstance, action: ScheduleActionName, run: (deps: ScheduleDeps, request: FastifyRequest<Params>) => Promise<string>): void {
  const access = action === 'advance' ? 'schedules.test-clock' : 'schedules.manage';
  app.post<Params>(`${SCHEDULES_PATH}/:id/${action}`, { config: { console: access } }, async (request, reply) => {
    try {
      const id = await run({ payments: app.gateway.payments, settings: app.gateway.config.schedules }, request);
      return reply.redirect(`${SCHEDULES_PATH}/${encodeURIComponent(id)}?done=${action}`, 303);
    } catch (error) {
      return answerError(request, reply, action, error);
    }
  });
}

/**
 * Schedules: the list (GET /console/schedules), a schedule (GET /console/schedules/:id) with its
 * runs and next fire times, and its changes, each a POST through the API's own operation
 * (reschedule, deschedule, the test clock), audited, that redirects back (303).
 */
export function registerSchedules(app: FastifyInstance): void {
  app.get<{ Querystring: Record<string, unknown> }>(SCHEDULES_PATH, { config: { console: 'schedules.view' } }, showList);
  app.get<Params>(`${SCHEDULES_PATH}/:id`, { config: { console: 'schedules.view' } }, (request, reply) => showDetail(request, reply));
  registerChange(app, 'reschedule', (deps, request) =>
    rescheduleFromConsole(deps, { ...actorOf(request), scheduleId: request.params.id, expression: formField(request, 'job.expression'), timeZone: formField(request, 'job.timeZone') }));
  registerChange(app, 'deschedule', async (deps, request) => {
    await descheduleFromConsole(deps, { ...actorOf(request), scheduleId: request.params.id });
    return request.params.id;
  });
  registerChange(app, 'advance', async (deps, request) => {
    await advanceFromConsole(deps, { ...actorOf(request), scheduleId: request.params.id, to: formField(request, 'to') });
    return request.params.id;
  });
}
