/** The overview's pure rules: the period form, and the figures from rollup cells (a row per case). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { overviewFigures, topMerchants, type Cell } from '../../../src/domain/overview/overview-figures.js';
import { parseOverviewForm } from '../../../src/domain/overview/overview-period.js';

const NOW = new Date('2026-11-27T13:05:00Z');

describe('the overview period', () => {
  const cases: [Record<string, string>, string, string][] = [
    [{}, '2026-11-21T00:00:00.000Z', '2026-11-28T00:00:00.000Z'],
    [{ period: 'today' }, '2026-11-27T00:00:00.000Z', '2026-11-28T00:00:00.000Z'],
    [{ period: '30d' }, '2026-10-29T00:00:00.000Z', '2026-11-28T00:00:00.000Z'],
    [{ period: 'custom', from: '2026-02-01', to: '2026-02-28' }, '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    [{ period: 'custom', from: '2026-02-01', to: '2026-02-01' }, '2026-02-01T00:00:00.000Z', '2026-02-02T00:00:00.000Z'],
  ];
  for (const [form, from, to] of cases) {
    it(`${JSON.stringify(form)} is ${from} to ${to} (UTC days)`, () => {
      const parsed = parseOverviewForm(form, NOW);
      assert.ok(parsed.ok);
      assert.equal(parsed.request.from.toISOString(), from);
      assert.equal(parsed.request.to.toISOString(), to);
    });
  }
  it('refuses a day that does not exist, and names the field', () => {
    const parsed = parseOverviewForm({ period: 'custom', from: '2026-02-30', to: '2026-03-01' }, NOW);
    assert.ok(!parsed.ok);
    assert.deepEqual(parsed.errors, [{ field: 'from', message: 'a date like 2026-11-27' }]);
  });
});

const cell = (over: Partial<Cell>): Cell => ({ entityId: 'e1', paymentType: 'DB', currency: '', status: 'success', dimension: 'result', value: 'none:000.100.110', count: 1, amountMinor: 0n, ...over });

describe('the overview figures', () => {
  it('splits 3-D Secure into frictionless, challenge and failed, leaving pending ones out', () => {
    const figures = overviewFigures([
      cell({ value: 'frictionless:000.100.110', count: 6 }),
      cell({ value: 'challenge:000.100.110', count: 3 }),
      cell({ value: 'challenge:000.400.108', status: 'rejected', count: 1 }), // 3-D Secure group: failed
      cell({ value: 'none:100.400.080', status: 'rejected', count: 2 }), // risk, not 3-D Secure
      cell({ value: 'challenge:000.200.000', status: 'pending', count: 5 }),
    ]);
    assert.deepEqual(figures.threeDSecure, { attempted: 10, frictionless: 6, challenge: 3, failed: 1 });
    assert.deepEqual(figures.declinesByGroup, [{ group: 'risk', count: 2 }, { group: 'three_d_secure', count: 1 }]);
  });

  it('counts volume, refunds and chargebacks per currency from the "all" cells, and the chargeback ratio against approvals', () => {
    const all = (over: Partial<Cell>): Cell => cell({ dimension: 'all', value: '', currency: 'EUR', ...over });
    const figures = overviewFigures([
      all({ count: 4, amountMinor: 4000n }),
      all({ paymentType: 'PA', status: 'rejected', count: 1, amountMinor: 500n }),
      all({ paymentType: 'RF', count: 2, amountMinor: 700n }),
      all({ paymentType: 'RF', status: 'rejected', count: 1, amountMinor: 100n }),
      all({ paymentType: 'CB', count: 1, amountMinor: 1000n }),
      all({ paymentType: 'CP', count: 3, amountMinor: 3000n }),
    ]);
    assert.deepEqual(figures.byCurrency, [{ currency: 'EUR', payments: 5, approved: 4, approvedMinor: 4000n, refunds: 2, refundedMinor: 700n, chargebacks: 1, chargebackMinor: 1000n }]);
    assert.equal(figures.approvalRate, 0.8);
    assert.equal(figures.chargebackRatio, 0.25);
  });

  it('ranks merchants by approved payments, and by decline rate among those with enough payments', () => {
    const all = (entityId: string, status: string, count: number): Cell => cell({ dimension: 'all', value: '', currency: 'EUR', entityId, status, count });
    const merchantOf = (id: string) => ({ a1: 'A', a2: 'A', b1: 'B', c1: 'C' })[id] ?? id;
    const top = topMerchants([all('a1', 'success', 30), all('a2', 'rejected', 10), all('b1', 'success', 20), all('b1', 'rejected', 20), all('c1', 'rejected', 5)], merchantOf);
    assert.deepEqual(top.byVolume.map((row) => row.key), ['A', 'B', 'C']);
    assert.deepEqual(top.byDeclineRate.map((row) => [row.key, row.rate]), [['B', 0.5], ['A', 0.25]], 'C decided too few to rank');
  });
});
