import { resultOf, type ResultBody } from '../../http/envelope.js';
import { formatAmount } from '../../domain/money.js';
import type { ScheduleRun, StoredSchedule } from '../../storage/repositories/schedules.js';

/** A schedule operation's answer: the body and its result. */
export interface ScheduleView {
  readonly body: Record<string, unknown>;
  readonly result: ResultBody;
}

/** yyyy-MM-dd HH:mm:ss in UTC, the form of job.startDate and job.endDate. */
export function wireTime(at: Date | null | undefined): string | undefined {
  return at ? at.toISOString().slice(0, 19).replace('T', ' ') : undefined;
}

/**
 * Schedule operations move no money: like registrations they answer the system's plain success,
 * 000.100.110 on the test system (000.100.112 with testMode EXTERNAL), 000.000.000 on the live one.
 */
export function scheduleSuccess(system: 'test' | 'live', testMode: string | undefined): ResultBody {
  if (system === 'live') return resultOf('000.000.000');
  return resultOf(testMode === 'EXTERNAL' ? '000.100.112' : '000.100.110');
}

const STATE: Readonly<Record<StoredSchedule['status'], string>> = { active: 'ACTIVE', ended: 'ENDED' };

/** The state part every answer about a schedule carries: where it stands and what comes next. */
export function scheduleState(s: StoredSchedule): Record<string, unknown> {
  const state: Record<string, unknown> = { state: STATE[s.status], paymentType: s.paymentType, timeZone: s.timeZone, expression: s.expression, startDate: wireTime(s.startsAt) };
  if (s.endsAt) state['endDate'] = wireTime(s.endsAt);
  if (s.status === 'active') {
    state['nextFireTime'] = wireTime(s.fireAt);
    // Cancelled under notice: runs go on until endDate, then the schedule ends as DESCHEDULED.
    if (s.cancelledAt) state['cancelledAt'] = wireTime(s.cancelledAt);
    if (s.attempt > 0) state['retry'] = s.attempt;
  } else {
    state['endReason'] = s.endReason?.toUpperCase();
    state['endedAt'] = wireTime(s.endedAt);
  }
  if (s.replacedBy) state['replacedBy'] = s.replacedBy;
  // The test clock: how far this schedule's time runs ahead of the real time.
  if (s.clockOffsetMs !== 0) state['testClockOffsetSeconds'] = Math.floor(s.clockOffsetMs / 1000);
  return state;
}

function runView(run: ScheduleRun): Record<string, unknown> {
  return {
    fireTime: wireTime(run.fireAt),
    ...(run.attempt > 0 ? { retry: run.attempt } : {}),
    outcome: run.outcome.toUpperCase(),
    ...(run.transactionId ? { paymentId: run.transactionId } : {}),
    ...(run.resultCode ? { resultCode: run.resultCode } : {}),
    ranAt: wireTime(run.ranAt),
  };
}

/** GET /scheduling/v1/schedules/{id}: the stored answer of its SD (or RS), its state now, and its runs. */
export function scheduleBody(s: StoredSchedule, runs: readonly ScheduleRun[]): Record<string, unknown> {
  const { result: _result, schedule: _schedule, ...stored } = s.response;
  return { ...stored, schedule: { ...scheduleState(s), runs: runs.map(runView) } };
}

/** The answer to SD and RS: the schedule as created, its plan, and the echoed request. */
export function createdBody(input: {
  readonly id: string;
  readonly paymentType: 'SD' | 'RS';
  readonly referencedId?: string | undefined;
  readonly schedule: StoredSchedule;
  readonly shortId: string;
}): Record<string, unknown> {
  const s = input.schedule;
  const run = s.runRequest;
  const standingInstruction: Record<string, string> = {};
  for (const [name, value] of Object.entries(run)) if (name.startsWith('standingInstruction.')) standingInstruction[name.slice(20)] = value;
  return {
    id: input.id,
    ...(input.referencedId ? { referencedId: input.referencedId } : {}),
    paymentType: input.paymentType,
    registrationId: s.registrationId,
    amount: formatAmount(s.amountMinor),
    currency: s.currency,
    ...(run['descriptor'] ? { descriptor: run['descriptor'] } : {}),
    ...(run['merchantTransactionId'] ? { merchantTransactionId: run['merchantTransactionId'] } : {}),
    shortId: input.shortId,
    standingInstruction,
    job: { ...s.job, expression: s.expression, timeZone: s.timeZone },
    schedule: scheduleState(s),
  };
}
