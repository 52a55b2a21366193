import { GatewayError } from '../../results/gateway-error.js';
import type { Queryable } from '../../storage/port.js';
import { findSchedule, type StoredSchedule } from '../../storage/repositories/schedules.js';

const SCHEDULE_ID = /^[a-zA-Z0-9]{32}$/;

/**
 * The schedule the entity names. A schedule is its SD (or RS) transaction, so an unknown id, or
 * another entity's, answers like an unknown transaction (404 700.400.580): ids cannot be probed.
 */
export async function loadSchedule(db: Queryable, entityId: string, id: string): Promise<StoredSchedule> {
  const schedule = SCHEDULE_ID.test(id) ? await findSchedule(db, entityId, id) : undefined;
  if (!schedule) throw new GatewayError('700.400.580', { httpStatus: 404 });
  return schedule;
}

/** The schedule's own time: the real time plus what a test clock added. */
export function scheduleNow(realNow: Date, schedule: Pick<StoredSchedule, 'clockOffsetMs'>): Date {
  return new Date(realNow.getTime() + schedule.clockOffsetMs);
}
