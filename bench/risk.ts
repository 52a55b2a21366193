/**
 * The risk rows of `npm run bench` on their own:
 *
 *   npm run bench:risk
 *
 * BENCH_RISK_ATTEMPTS (1000000 attempts recorded before the velocity checks),
 * BENCH_RISK_LIST_ENTRIES (100000 blacklist entries of the merchant), BENCH_RISK_ROUNDS (6 rounds
 * of payments without and with risk, back to back, alternating which runs first; the cost is
 * the median of the three two-round blocks, riskCost), BENCH_RISK_CHECKS
 * (2000 checks timed), BENCH_CONNECTIONS (64), BENCH_DURATION_SECONDS (10 per payment phase),
 * BENCH_POOL_SIZE (10). Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its own,
 * dropped afterwards).
 */
import { describePhase, type PhaseResult } from './load.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { createBenchSchema, createMerchant, type BenchSchema } from './support/postgres.js';
import { representativeRound, riskCost, riskPaymentPhases, velocityCheckPhase, type RiskPhaseSettings } from './support/risk-phase.js';
import type { Merchant } from './support/gateway-phases.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const riskSettings = {
  attempts: envNumber('BENCH_RISK_ATTEMPTS', 1_000_000),
  listEntries: envNumber('BENCH_RISK_LIST_ENTRIES', 100_000),
  checks: envNumber('BENCH_RISK_CHECKS', 2_000),
  rounds: envNumber('BENCH_RISK_ROUNDS', 6),
};

/**
 * The rows: payments with and without risk (the round whose own ratio is nearest the
 * cost), and the velocity check's cost; a line on the cost and every round's payments/s.
 */
export async function riskPhases(schema: BenchSchema, merchant: Merchant, base: Omit<RiskPhaseSettings, 'schemaUrl' | 'admin' | 'merchant' | 'attempts' | 'listEntries' | 'checks' | 'rounds'>): Promise<PhaseResult[]> {
  const settings: RiskPhaseSettings = { schemaUrl: schema.url, admin: schema.admin, merchant, ...base, ...riskSettings };
  const rounds = await riskPaymentPhases(settings);
  const check = await velocityCheckPhase(settings);
  const fewer = riskCost(rounds);
  const each = rounds.map((r) => `${Math.round(r.withRisk.requestsPerSecond)}/${Math.round(r.without.requestsPerSecond)}`).join(', ');
  console.log(`risk: ${(fewer * 100).toFixed(1)} % fewer payments/s with the default rule set, median of ${Math.ceil(rounds.length / 2)} blocks of two rounds (with/without: ${each}; target < 10 %)`);
  const shown = representativeRound(rounds, fewer);
  return [shown.withRisk, shown.without, check];
}

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_risk');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    const phases = await riskPhases(schema, merchant, { connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), durationSeconds: envNumber('BENCH_DURATION_SECONDS', 10) });
    for (const phase of phases) console.log(describePhase(phase));
  } finally {
    await schema.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
