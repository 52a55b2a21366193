import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cancellationTakesEffectAt, periodEndAtOrAfter, readNoticeTerms, type JobPeriod, type NoticeTerms } from '../../../src/domain/schedules/notice.js';

const at = (wire: string) => new Date(`${wire.replace(' ', 'T')}Z`);
const shown = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

test('the notice fields: both or none; noticeCallable defaults to DURATION_END', () => {
  assert.deepEqual(readNoticeTerms({}), { terms: undefined });
  assert.deepEqual(readNoticeTerms({ noticeUnit: 'DAY', noticeNumber: '30' }), { terms: { unit: 'DAY', count: 30, callable: 'DURATION_END' } });
  assert.deepEqual(readNoticeTerms({ noticeUnit: 'WEEK', noticeNumber: '2', noticeCallable: 'ANYTIME' }), { terms: { unit: 'WEEK', count: 2, callable: 'ANYTIME' } });
  assert.equal((readNoticeTerms({ noticeNumber: '3' }) as any).problem.name, 'job.noticeUnit');
  assert.equal((readNoticeTerms({ noticeUnit: 'DAY' }) as any).problem.name, 'job.noticeNumber');
  assert.equal((readNoticeTerms({ noticeCallable: 'ANYTIME' }) as any).problem.name, 'job.noticeCallable');
});

const quarterly: JobPeriod = { from: at('2027-01-15 00:00:00'), unit: 'MONTH', count: 3 };
const thirtyDays = (callable: NoticeTerms['callable']): NoticeTerms => ({ unit: 'DAY', count: 30, callable });

// [label, terms, period, cancellation given at, takes effect at]
const CASES: Array<[string, NoticeTerms, JobPeriod | undefined, string, string]> = [
  ['in time: the current period ends it', thirtyDays('DURATION_END'), quarterly, '2027-02-01 00:00:00', '2027-04-15 00:00:00'],
  ['exactly the notice before the end: in time', thirtyDays('DURATION_END'), quarterly, '2027-03-16 00:00:00', '2027-04-15 00:00:00'],
  ['a second late: one more period', thirtyDays('DURATION_END'), quarterly, '2027-03-16 00:00:01', '2027-07-15 00:00:00'],
  ['before the start: the first period', thirtyDays('DURATION_END'), quarterly, '2026-12-01 00:00:00', '2027-04-15 00:00:00'],
  ['years later, month arithmetic from the start', thirtyDays('DURATION_END'), quarterly, '2040-05-20 00:00:00', '2040-07-15 00:00:00'],
  ['ANYTIME: the notice after the cancellation', thirtyDays('ANYTIME'), quarterly, '2027-02-01 00:00:00', '2027-03-03 00:00:00'],
  ['no period: the notice after the cancellation', thirtyDays('DURATION_END'), undefined, '2027-02-01 00:00:00', '2027-03-03 00:00:00'],
  ['seconds over years stay bounded', { unit: 'SECOND', count: 10, callable: 'DURATION_END' }, { from: at('2027-01-01 00:00:00'), unit: 'SECOND', count: 7 }, '2031-01-01 00:00:00', '2031-01-01 00:00:12'],
];

for (const [label, terms, period, givenAt, expected] of CASES) {
  test(`a cancellation takes effect: ${label}`, () => {
    assert.equal(shown(cancellationTakesEffectAt(terms, period, at(givenAt))), expected);
  });
}

test('the period end at or after a deadline is the first one, never an earlier', () => {
  const weekly: JobPeriod = { from: at('2027-01-04 06:00:00'), unit: 'WEEK', count: 1 };
  assert.equal(shown(periodEndAtOrAfter(weekly, at('2027-01-11 06:00:00'))), '2027-01-11 06:00:00');
  assert.equal(shown(periodEndAtOrAfter(weekly, at('2027-01-11 06:00:01'))), '2027-01-18 06:00:00');
});
