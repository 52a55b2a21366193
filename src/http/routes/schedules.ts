import type { FastifyInstance, FastifyRequest } from 'fastify';
import { advanceSchedule } from '../../operations/schedules/advance-schedule.js';
import { createSchedule } from '../../operations/schedules/create-schedule.js';
import { descheduleSchedule } from '../../operations/schedules/deschedule-schedule.js';
import { getSchedule, listSchedules } from '../../operations/schedules/get-schedule.js';
import { rescheduleSchedule } from '../../operations/schedules/reschedule-schedule.js';
import type { ScheduleDeps } from '../../operations/schedules/schedule-deps.js';
import type { ScheduleView } from '../../operations/schedules/schedule-view.js';
import { resultCode } from '../../results/catalogue.js';
import { respondIdempotently, type HandlerResponse } from '../idempotency.js';
import { sendWithEnvelope } from '../reply.js';
import { registrationIdFrom } from './registrations.js';
import { validatedParameters } from '../validate-request.js';

const merchantApi = { config: { auth: 'entity' as const } };

function asResponse(view: ScheduleView): HandlerResponse {
  return { status: resultCode(view.result.code).httpStatus, body: view.body, result: view.result };
}

/** The form body's parameters as sent (single values), without the entity: what a schedule keeps. */
function wireOf(request: FastifyRequest): Record<string, string> {
  const wire: Record<string, string> = {};
  for (const [name, value] of Object.entries((request.body ?? {}) as Record<string, unknown>)) {
    if (name !== 'entityId' && typeof value === 'string') wire[name] = value;
  }
  return wire;
}

const field = (request: FastifyRequest, name: string): string | undefined => {
  const source = (request.method === 'POST' ? request.body : request.query) as Record<string, unknown> | undefined;
  const value = source?.[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Scheduling: POST /scheduling/v1/schedules (SD), …/{id}/reschedule (RS), …/{id}/deschedule
 * (DS), GET …/{id}, GET …?registrationId= (the schedules of a registration), and the test
 * clock POST …/{id}/advance (test system only).
 */
export function registerScheduleRoutes(app: FastifyInstance): void {
  // Read at each request: tests put their own vault on the payment deps after the build.
  const deps = (): ScheduleDeps => ({ payments: app.gateway.payments, settings: app.gateway.config.schedules });

  app.post('/scheduling/v1/schedules', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, {
      run: async () => {
        const parameters = validatedParameters('schedule', request);
        return asResponse(await createSchedule(deps(), { entityId: request.entityId!, request: parameters, wire: wireOf(request) }));
      },
    }),
  );

  app.post<{ Params: { id: string } }>('/scheduling/v1/schedules/:id/reschedule', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, {
      run: async () =>
        asResponse(await rescheduleSchedule(deps(), { entityId: request.entityId!, scheduleId: request.params.id, wire: wireOf(request), unknownParameters: request.unknownParameters })),
    }),
  );

  app.post<{ Params: { id: string } }>('/scheduling/v1/schedules/:id/deschedule', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, {
      run: async () => asResponse(await descheduleSchedule(deps(), { entityId: request.entityId!, scheduleId: request.params.id, testMode: field(request, 'testMode') })),
    }),
  );

  app.post<{ Params: { id: string } }>('/scheduling/v1/schedules/:id/advance', merchantApi, async (request, reply) => {
    const view = await advanceSchedule(app.gateway.payments, { entityId: request.entityId!, scheduleId: request.params.id, to: field(request, 'to') });
    return sendWithEnvelope(request, reply, resultCode(view.result.code).httpStatus, view.body, view.result);
  });

  app.get<{ Params: { id: string } }>('/scheduling/v1/schedules/:id', merchantApi, async (request, reply) => {
    const view = await getSchedule(app.gateway.payments, request.entityId!, request.params.id);
    return sendWithEnvelope(request, reply, resultCode(view.result.code).httpStatus, view.body, view.result);
  });

  app.get('/scheduling/v1/schedules', merchantApi, async (request, reply) => {
    const registrationId = registrationIdFrom(field(request, 'registrationId') ?? '');
    const view = await listSchedules(app.gateway.payments, request.entityId!, registrationId);
    return sendWithEnvelope(request, reply, resultCode(view.result.code).httpStatus, view.body, view.result);
  });
}
