import type { ComponentChildren } from 'preact';
import { mayPerform } from '../../../domain/access/permissions.js';
import type { Role } from '../../../domain/access/roles.js';
import { wireTime } from '../../../operations/schedules/schedule-view.js';
import type { StoredSchedule } from '../../../storage/repositories/schedules.js';
import { SCHEDULES_PATH } from './schedules-list-page.js';

export type ScheduleActionName = 'reschedule' | 'deschedule' | 'advance';

/** A form sent back with messages: the values as typed, the messages by field name. */
export interface ScheduleFormState {
  readonly action: ScheduleActionName;
  readonly values: Readonly<Record<string, string>>;
  readonly errors: Readonly<Record<string, string>>;
}

/** The form fields of each action and the operation's parameter names they carry. */
export const FORM_FIELDS: Readonly<Record<ScheduleActionName, readonly string[]>> = {
  reschedule: ['job.expression', 'job.timeZone'],
  deschedule: [],
  advance: ['to'],
};

function ActionForm({ scheduleId, action, label, csrfToken, danger, children }: {
  scheduleId: string; action: ScheduleActionName; label: string; csrfToken: string; danger?: boolean; children?: ComponentChildren;
}) {
  return (
    <form method="post" action={`${SCHEDULES_PATH}/${encodeURIComponent(scheduleId)}/${action}`} class={`action action-${action}`} noValidate>
      <input type="hidden" name="_csrf" value={csrfToken} />
      {children}
      <button type="submit" class={danger ? 'danger' : undefined}>{label}</button>
    </form>
  );
}

function Field({ id, name, label, hint, state, value }: { id: string; name: string; label: string; hint: string; state: ScheduleFormState | undefined; value: string }) {
  const error = state?.errors[name];
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <p id={`${id}-hint`} class="hint">{hint}</p>
      <input id={id} name={name} type="text" autoComplete="off" value={state?.values[name] ?? value} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`} />
      {error ? <p id={`${id}-error`} class="field-error">{error}</p> : null}
    </div>
  );
}

/** The changes this role may make to this schedule now; the operations decide for good (a stale page is refused there). */
export function ScheduleActions({ schedule, role, system, csrfToken, state }: {
  schedule: StoredSchedule; role: Role; system: 'test' | 'live'; csrfToken: string; state: ScheduleFormState | undefined;
}) {
  const active = schedule.status === 'active';
  const stateOf = (action: ScheduleActionName) => (state?.action === action ? state : undefined);
  const forms = [
    active && mayPerform(role, 'schedules.manage') ? (
      <ActionForm key="reschedule" scheduleId={schedule.id} action="reschedule" label="Reschedule" csrfToken={csrfToken}>
        <h3>Reschedule</h3>
        <p class="hint">The plan ends and a new one starts with this expression (RS); amount and card stay. A notice, start, end or duration of the old plan is not carried over, as with the API.</p>
        <Field id="reschedule-expression" name="job.expression" label="Job expression (Quartz, 6 or 7 fields)" hint="e.g. 0 0 6 1 * ? * = the 1st of every month at 06:00" state={stateOf('reschedule')} value={schedule.expression} />
        <Field id="reschedule-time-zone" name="job.timeZone" label="Time zone" hint="an IANA name such as Europe/Berlin" state={stateOf('reschedule')} value={schedule.timeZone} />
      </ActionForm>
    ) : null,
    active && !schedule.cancelledAt && mayPerform(role, 'schedules.manage') ? (
      <ActionForm key="deschedule" scheduleId={schedule.id} action="deschedule" label="Deschedule" csrfToken={csrfToken} danger>
        <h3>Deschedule</h3>
        <p class="hint">No run after this (DS); under a cancellation notice, none after the notice allows.</p>
      </ActionForm>
    ) : null,
    active && system === 'test' && mayPerform(role, 'schedules.test-clock') ? (
      <ActionForm key="advance" scheduleId={schedule.id} action="advance" label="Advance" csrfToken={csrfToken}>
        <h3>Test clock</h3>
        <p class="hint">Moves this schedule's time forward: every fire time up to then is made by the job runner, each its own payment.</p>
        <Field id="advance-to" name="to" label="Advance to (UTC)" hint="yyyy-MM-dd HH:mm:ss" state={stateOf('advance')} value={wireTime(schedule.fireAt) ?? ''} />
      </ActionForm>
    ) : null,
  ].filter((form) => form !== null);
  if (forms.length === 0) return <p>{active ? 'Your role allows no change to this schedule.' : 'An ended schedule cannot be changed.'}</p>;
  return <div class="payment-actions">{forms}</div>;
}
