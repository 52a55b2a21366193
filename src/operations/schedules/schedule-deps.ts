import type { ScheduleSettings } from '../../config/schedule-settings.js';
import type { PaymentDeps } from '../deps.js';

/** Schedules pay through the payment operations, with the schedule settings beside them. */
export interface ScheduleDeps {
  readonly payments: PaymentDeps;
  readonly settings: ScheduleSettings;
}
