import type { EndpointRequest } from '../../catalogue/index.js';
import { newShortId } from '../../domain/short-id.js';
import { GatewayError, type ParameterError } from '../../results/gateway-error.js';
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

/** Where docs/schedules.md says what a schedule needs first; the refusal points there. */
export const SCHEDULE_INITIAL_PAYMENT_DOCS = 'docs/schedules.md#creating-a-schedule';

/**
 * Runs are MITs: a stored card needs its initial CIT's scheme reference (or one named in the
 * request). Both ways out are named, each its own entry, so one answer says what to send.
 */
function withoutInitialCit(registration: StoredRegistration, run: Readonly<Record<string, string>>): ParameterError[] {
  if (!CARD_LIKE.includes(registration.method) || registration.initialSchemeReference || run['standingInstruction.initialTransactionId']) return [];
  return [
    { name: 'registrationId', value: registration.id, message: `runs are MIT REPEATED payments: the registration needs a successful INITIAL CIT payment (or a recurring migration) first (${SCHEDULE_INITIAL_PAYMENT_DOCS})` },
    { name: 'standingInstruction.initialTransactionId', value: '', message: `is required while the registration has no INITIAL CIT payment: the scheme reference of the series' first payment (${SCHEDULE_INITIAL_PAYMENT_DOCS})` },
  ];
}

/**
 * Everything wrong with a plan's runs in one answer: the series role a run cannot have, the run
 * parameters the catalogue refuses, then the initial payment the registration lacks. The code is
 * the first error's. Answers the run parameters when nothing is wrong.
 */
function checkedRun(entityId: string, registration: StoredRegistration, wire: Readonly<Record<string, string>>, now: Date): Record<string, string> {
  const refusals: GatewayError[] = [];
  const attempt = <T>(step: () => T): T | undefined => {
    try {
      return step();
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      refusals.push(error);
      return undefined;
    }
  };
  const run = attempt(() => runRequestOf(wire));
  if (run) attempt(() => runPaymentRequest(entityId, run, now));
  const missing = withoutInitialCit(registration, wire);
  if (run && refusals.length === 0 && missing.length === 0) return run;
  const parameterErrors = [...refusals.flatMap((refusal) => refusal.parameterErrors ?? [])];
  const named = new Set(parameterErrors.map((entry) => entry.name));
  parameterErrors.push(...missing.filter((entry) => !named.has(entry.name)));
  throw new GatewayError(refusals[0]?.code ?? INITIAL_CIT_MISSING_CODE, { parameterErrors });
}

/** "no valid registration": the registration cannot carry MIT runs yet. */
const INITIAL_CIT_MISSING_CODE = '100.150.300';

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
  const run = checkedRun(input.entityId, registration, input.wire, payments.clock.now());
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
