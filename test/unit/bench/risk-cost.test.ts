import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PhaseResult } from '../../../bench/load.js';
import { representativeRound, riskCost, type RiskRound } from '../../../bench/support/risk-phase.js';

const phase = (requestsPerSecond: number) => ({ requestsPerSecond }) as PhaseResult;
const round = (withRisk: number, without: number): RiskRound => ({ withRisk: phase(withRisk), without: phase(without) });

describe('the risk rows of npm run bench', () => {
  const cases: { name: string; rounds: RiskRound[]; cost: number; shown: number }[] = [
    { name: 'one round', rounds: [round(900, 1000)], cost: 0.1, shown: 0 },
    // Phases without, with, with, without, each 30 payments/s slower than the one before, risk
    // costing 10 %: the block says 10 %, where the first round alone says 12.7 % and the second 7 %.
    { name: 'a block cancels the drift', rounds: [round(0.9 * 970, 1000), round(0.9 * 940, 910)], cost: 0.1, shown: 0 },
    { name: 'pooled within a block: the faster round weighs more', rounds: [round(1800, 2000), round(500, 1000)], cost: 1 - 2300 / 3000, shown: 0 },
    {
      name: 'the median block: one disturbed phase does not decide',
      rounds: [round(900, 1000), round(900, 1000), round(500, 1000), round(900, 1000), round(880, 1100), round(900, 1000)],
      cost: 1 - 1780 / 2100,
      shown: 4,
    },
    { name: 'an odd last round is a block of its own', rounds: [round(900, 1000), round(900, 1000), round(800, 1000)], cost: (0.1 + 0.2) / 2, shown: 0 },
    { name: 'risk faster than without (noise) is a negative cost', rounds: [round(1050, 1000), round(1020, 1000)], cost: 1 - 2070 / 2000, shown: 1 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const cost = riskCost(c.rounds);
      assert.ok(Math.abs(cost - c.cost) < 1e-9, `${cost} against ${c.cost}`);
      assert.equal(representativeRound(c.rounds, cost), c.rounds[c.shown]);
    });
  }
});
