import { violation, type ConditionalRule } from './types.js';

/** Scheduling rules. */

export const jobDayOfWeekOrDayOfMonth: ConditionalRule = {
  id: 'jobDayOfWeekOrDayOfMonth',
  description: 'job.dayOfWeek and job.dayOfMonth are not both given unless one of them is ?. When only one is sent, the other counts as ?.',
  codes: ['100.250.120'],
  check(context) {
    const dayOfWeek = context.value('job.dayOfWeek');
    const dayOfMonth = context.value('job.dayOfMonth');
    if (dayOfWeek === undefined || dayOfMonth === undefined || dayOfWeek === '?' || dayOfMonth === '?') return [];
    return [violation('job.dayOfWeek', '100.250.120', 'must be ? when job.dayOfMonth is given')];
  },
};

const EXECUTION_FIELDS = ['job.expression', 'job.second', 'job.minute', 'job.hour', 'job.dayOfMonth', 'job.month', 'job.dayOfWeek', 'job.year'];

export const scheduleHasExecution: ConditionalRule = {
  id: 'scheduleHasExecution',
  description: 'A schedule says when it runs: job.expression or at least one of job.second … job.year.',
  codes: ['100.250.100'],
  check(context) {
    if (context.endpoint !== 'schedule' || EXECUTION_FIELDS.some((name) => context.has(name))) return [];
    return [violation('job.expression', '100.250.100', 'is required, or one of job.second, minute, hour, dayOfMonth, month, dayOfWeek, year')];
  },
};
