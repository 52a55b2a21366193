import type { Visibility } from '../../domain/access/actor.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { fireTimes, splitExpression } from '../../domain/schedules/cron.js';
import { upcomingFireTimes } from '../../domain/schedules/upcoming.js';
import type { Queryable } from '../../storage/port.js';
import { findConsoleSchedule, listConsoleSchedules, type ListedSchedule } from '../../storage/repositories/console/schedule-list.js';
import { runsOfSchedule, type ScheduleRun, type ScheduleStatus } from '../../storage/repositories/schedules.js';
import { invalidField } from './console-action.js';
import { paymentNotFound } from './load-payment-detail.js';
import { visibleEntityIds } from './search-payments.js';

/** The most schedules one list shows: narrow it by merchant or status to see others. */
export const SCHEDULE_LIST_ROWS = 200;
/** How many coming fire times the detail page shows. */
export const UPCOMING_FIRE_TIMES = 5;

export interface ScheduleFilter {
  readonly status: ScheduleStatus;
  readonly merchantId: string | undefined;
}

/** The list's query string, checked: a wrong value is named (the page answers 400 with it). */
export function parseScheduleFilter(query: Readonly<Record<string, unknown>>, visibility: Visibility): ScheduleFilter {
  const status = typeof query['status'] === 'string' && query['status'] !== '' ? query['status'] : 'active';
  if (status !== 'active' && status !== 'ended') throw invalidField('status', status, 'must be active or ended');
  const merchant = typeof query['merchant'] === 'string' ? query['merchant'].trim() : '';
  if (merchant !== '' && visibility.kind !== 'all') throw invalidField('merchant', merchant, 'only operators choose a merchant: you see your own');
  if (merchant !== '' && !ENTITY_ID_PATTERN.test(merchant)) throw invalidField('merchant', merchant, 'must be a merchant id (32 hex)');
  return { status, merchantId: merchant || undefined };
}

/** Schedules the person may see (an operator every merchant's, else their merchant's), in the filter's order. */
export async function listSchedulesForConsole(deps: { readonly storage: Queryable }, visibility: Visibility, filter: ScheduleFilter): Promise<ListedSchedule[]> {
  const entityIds = await visibleEntityIds(deps.storage, visibility);
  return listConsoleSchedules(deps.storage, { entityIds, merchantId: filter.merchantId, status: filter.status, limit: SCHEDULE_LIST_ROWS });
}

export interface ConsoleScheduleDetail extends ListedSchedule {
  readonly runs: readonly ScheduleRun[];
  /** The schedule's coming fire times, in its own time (a test clock runs ahead of the real one). */
  readonly upcoming: readonly Date[];
}

/** A schedule the person may see, or the 404 of a payment that does not exist (ids cannot be probed). */
export async function findVisibleSchedule(db: Queryable, visibility: Visibility, id: string): Promise<ListedSchedule> {
  if (!/^[a-zA-Z0-9]{32}$/.test(id)) throw paymentNotFound();
  const found = await findConsoleSchedule(db, await visibleEntityIds(db, visibility), id);
  if (!found) throw paymentNotFound();
  return found;
}

/** A schedule with its runs and its next fire times, computed by the cron source the runner uses. */
export async function loadScheduleForConsole(deps: { readonly storage: Queryable }, visibility: Visibility, id: string): Promise<ConsoleScheduleDetail> {
  const found = await findVisibleSchedule(deps.storage, visibility, id);
  const { schedule } = found;
  const runs = await runsOfSchedule(deps.storage, schedule.id);
  const fields = splitExpression(schedule.expression);
  const upcoming = schedule.status === 'active' && schedule.fireAt && fields
    ? upcomingFireTimes(fireTimes(fields, schedule.timeZone), schedule.fireAt, schedule.endsAt, UPCOMING_FIRE_TIMES)
    : [];
  return { ...found, runs, upcoming };
}
