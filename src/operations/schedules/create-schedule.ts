import type { EndpointRequest } from '../../catalogue/index.js';
import { newShortId } from '../../domain/short-id.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { Queryable } from '../../storage/port.js';
import type { StoredRegistration } from '../../storage/repositories/registrations.js';
import { insertSchedule, insertScheduleTransaction, type StoredSchedule } from '../../storage/repositories/schedules.js';
import { loadRegistration, refuseUnusable } from '../registrations/load-registration.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import { runPaymentRequest, runRequestOf } from './run-request.js';
import type { ScheduleDeps } from './schedule-deps.js';
import { dueAt, planFiring } from './schedule-firing.js';
import { jobFieldsAsSent, planOfJob, type SchedulePlan } from './schedule-plan.js';
import { createdBody, scheduleSuccess, type ScheduleView } from './schedule-view.js';

export interface CreateScheduleInput {
  readonly entityId: string;
  /** The validated request (endpoint `schedule`). */
  readonly request: EndpointRequest<'schedule'>;
  /** The same request's wire parameters: what runs send is kept in this form. */
  readonly wire: Readonly<Record<string, string>>;
}

/** What a new plan starts from: SD from nothing, RS from the schedule it replaces (in the same transaction). */
export interface NewPlan extends CreateScheduleInput {
  readonly paymentType: 'SD' | 'RS';
  /** The schedule's own time (a rescheduled plan keeps its predecessor's test clock). */
  readonly now: Date;
  readonly clockOffsetMs: number;
  readonly playedUntil: Date | null;
  /** RS: ends the old plan inside the transaction that starts the new one; answers its id. */
  readonly endPrevious?: ((tx: Queryable, newId: string) => Promise<string>) | undefined;
}

const CARD_LIKE: readonly string[] = ['card', 'tokenAccount'];

/** Runs are MITs: a stored card needs its initial CIT's scheme reference (or one named in the request). */
function refuseWithoutInitialCit(registration: StoredRegistration, run: Readonly<Record<string, string>>): void {
  if (!CARD_LIKE.includes(registration.method) || registration.initialSchemeReference || run['standingInstruction.initialTransactionId']) return;
  throw new GatewayError('100.150.300', {
    parameterErrors: [{ name: 'registrationId', value: registration.id, message: 'runs are MIT REPEATED payments: the registration needs a successful INITIAL CIT payment (or a recurring migration) first' }],
  });
}

function newSchedule(input: NewPlan, plan: SchedulePlan, id: string, run: Record<string, string>, at: Date): StoredSchedule {
  return {
    id,
    entityId: input.entityId,
    registrationId: input.request.registrationId,
    status: 'active',
    endReason: null,
    paymentType: input.request.paymentType,
    amountMinor: input.request.amount,
    currency: input.request.currency,
    expression: plan.expression,
    timeZone: plan.timeZone,
    startsAt: plan.window.startsAt,
    endsAt: plan.window.endsAt ?? null,
    runRequest: run,
    job: jobFieldsAsSent(input.wire),
    fireAt: plan.firstFireAt,
    attempt: 0,
    jobId: null,
    clockOffsetMs: input.clockOffsetMs,
    playedUntil: input.playedUntil,
    replacedBy: null,
    response: {},
    createdAt: at,
    updatedAt: at,
    endedAt: null,
    cancelledAt: null,
  };
}

/**
 * SD (and the new plan of an RS): checks the registration and the plan, then writes in one
 * transaction the SD/RS transaction, the schedule, the job of its first fire time and the
 * SCHEDULE notification.
 */
export async function startPlan(deps: ScheduleDeps, input: NewPlan): Promise<ScheduleView> {
  const { payments } = deps;
  const registration = await loadRegistration(payments.storage, input.entityId, input.request.registrationId);
  refuseUnusable(registration);
  const run = runRequestOf(input.wire);
  runPaymentRequest(input.entityId, run, payments.clock.now());
  refuseWithoutInitialCit(registration, run);
  const plan = planOfJob(input.request.job, input.now, deps.settings.defaultTimeZone);
  const id = payments.ids.id();
  const at = payments.clock.now();
  const shortId = newShortId();
  const schedule = newSchedule(input, plan, id, run, at);
  const result = scheduleSuccess(payments.system, input.request.testMode);
  return payments.storage.transaction(async (tx) => {
    const previousId = input.endPrevious ? await input.endPrevious(tx, id) : undefined;
    const body = createdBody({ id, paymentType: input.paymentType, referencedId: previousId, schedule, shortId });
    const response = { ...body, result };
    await insertScheduleTransaction(tx, {
      id, entityId: input.entityId, parentId: previousId ?? null, paymentType: input.paymentType, resultCode: result.code, amountMinor: schedule.amountMinor,
      currency: schedule.currency, merchantTransactionId: run['merchantTransactionId'] ?? null, shortId, response, at,
    });
    await insertSchedule(tx, { ...schedule, response });
    await planFiring(tx, { scheduleId: id, fireAt: plan.firstFireAt, attempt: 0, runAt: dueAt(plan.firstFireAt, input.clockOffsetMs), at });
    await enqueueNotification(tx, { entityId: input.entityId, type: 'SCHEDULE', action: input.paymentType === 'SD' ? 'CREATED' : 'RESCHEDULED', payload: response }, payments);
    return { body, result };
  });
}

/** POST /scheduling/v1/schedules (SD). */
export function createSchedule(deps: ScheduleDeps, input: CreateScheduleInput): Promise<ScheduleView> {
  return startPlan(deps, { ...input, paymentType: 'SD', now: deps.payments.clock.now(), clockOffsetMs: 0, playedUntil: null });
}
