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

// Every job.* field is optional with the specification's defaults (yearly on 1 January at
// 00:00:00 when none is sent): no rule asks for an execution field (docs/schedules.md).
