import { runsOfSchedule, listSchedulesOfRegistration } from '../../storage/repositories/schedules.js';
import { loadRegistration } from '../registrations/load-registration.js';
import type { OperationDeps } from '../deps.js';
import { loadSchedule } from './load-schedule.js';
import { scheduleBody, scheduleSuccess, type ScheduleView } from './schedule-view.js';

/** GET /scheduling/v1/schedules/{id}: the schedule, its state and its runs with their payment ids. */
export async function getSchedule(deps: OperationDeps & { system: 'test' | 'live' }, entityId: string, id: string): Promise<ScheduleView> {
  const schedule = await loadSchedule(deps.storage, entityId, id);
  const runs = await runsOfSchedule(deps.storage, schedule.id);
  return { body: scheduleBody(schedule, runs), result: scheduleSuccess(deps.system, schedule.runRequest['testMode']) };
}

/** GET /scheduling/v1/schedules?registrationId=…: every schedule of a registration, oldest first, with their runs. */
export async function listSchedules(deps: OperationDeps & { system: 'test' | 'live' }, entityId: string, registrationId: string): Promise<ScheduleView> {
  await loadRegistration(deps.storage, entityId, registrationId);
  const schedules = await listSchedulesOfRegistration(deps.storage, entityId, registrationId);
  const bodies = [];
  for (const schedule of schedules) bodies.push(scheduleBody(schedule, await runsOfSchedule(deps.storage, schedule.id)));
  return { body: { registrationId, schedules: bodies }, result: scheduleSuccess(deps.system, undefined) };
}
