/**
 * Risk checks, as rows of `npm run bench`: card payments with the default rule set against the
 * same payments with risk disabled for the merchant (alternated, so that drift of a shared
 * machine falls on both), and the cost of the engine's one statement (velocity counts, list
 * look-ups, the attempt's insert) with `attempts` attempts already recorded.
 */
import type pg from 'pg';
import { formRequest, runPhase, type PhaseResult } from '../load.js';
import { RISK_CACHE_MS } from '../../src/operations/risk/risk-settings.js';
import { createHash } from 'node:crypto';
import { readFacts } from '../../src/storage/repositories/risk-attempts.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import { startGatewayProcess } from './gateway.js';
import { CARD_PAYMENT, type Merchant } from './gateway-phases.js';
import { latencySummary } from './stats.js';

export interface RiskPhaseSettings {
  readonly schemaUrl: string;
  readonly admin: pg.Client;
  readonly merchant: Merchant;
  readonly connections: number;
  readonly poolSize: number;
  readonly durationSeconds: number;
  /** Attempts recorded before the velocity checks are timed. */
  readonly attempts: number;
  /** Entries on the merchant's blacklist while the checks are timed. */
  readonly listEntries: number;
  /** Velocity checks timed, one after the other. */
  readonly checks: number;
  /** Rounds of payments without and with risk, back to back, the order alternating (two make a block: riskCost). */
  readonly rounds: number;
}

/** A Luhn-valid VISA number per shopper: 10 000 cards, as a shop's traffic has many. */
function cardNumber(n: number): string {
  const body = `4200001${String(n % 10_000).padStart(8, '0')}`; // no simulator test card (3-D Secure) among them
  let sum = 0;
  for (let k = 0; k < body.length; k += 1) {
    let d = Number(body[body.length - 1 - k]);
    if (k % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** A payment whose card, e-mail and IP vary, so the engine has four keys to count and record. */
function riskyBody(merchant: Merchant, i: number): Record<string, string> {
  return {
    entityId: merchant.entityId, paymentType: 'DB', ...CARD_PAYMENT, 'card.number': cardNumber(i), merchantTransactionId: `bench-risk-${i}`,
    'customer.givenName': 'Jane', 'customer.surname': 'Jones', 'customer.email': `shopper${i % 5000}@example.com`,
    'customer.ip': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'customer.merchantCustomerId': `c${i % 5000}`,
  };
}

async function setRiskEnabled(admin: pg.Client, entityId: string, enabled: boolean): Promise<void> {
  await admin.query(
    `INSERT INTO risk_rule_sets (entity_id, version, rules, changed_by, changed_at)
     SELECT $1, coalesce(max(version), 0) + 1, $2::jsonb, 'bench', now() FROM risk_rule_sets WHERE entity_id = $1`,
    [entityId, JSON.stringify(enabled ? {} : { enabled: false })],
  );
  // Every process applies a change within its cache time.
  await new Promise((resolve) => setTimeout(resolve, RISK_CACHE_MS + 500));
}

/** The payments/s with and without risk of one round, one right after the other. */
export interface RiskRound { readonly withRisk: PhaseResult; readonly without: PhaseResult }

/**
 * The share of payments/s the default rule set costs. Rounds alternate which half runs first
 * (riskPaymentPhases), and each two rounds, "without, with, with, without", make a block whose
 * cost (one minus its payments/s with risk over those without) the slow drift of a growing
 * database cancels out of: each phase adds tens of thousands of rows, and the same phase measured
 * 5 % lower three phases later, so always running "with" second charged that drift to risk. The
 * answer is the median of the blocks' costs, so that one phase disturbed by other work on the
 * host does not decide it (a last round without its pair makes a block of its own).
 */
export function riskCost(rounds: readonly RiskRound[]): number {
  const blocks: number[] = [];
  for (let b = 0; b < rounds.length; b += 2) blocks.push(pooledCost(rounds.slice(b, b + 2)));
  blocks.sort((x, y) => x - y);
  const middle = Math.floor(blocks.length / 2);
  return blocks.length % 2 === 1 ? blocks[middle]! : (blocks[middle - 1]! + blocks[middle]!) / 2;
}

function pooledCost(rounds: readonly RiskRound[]): number {
  const sum = (pick: (r: RiskRound) => PhaseResult) => rounds.reduce((total, r) => total + pick(r).requestsPerSecond, 0);
  return 1 - sum((r) => r.withRisk) / sum((r) => r.without);
}

/** The round whose own ratio is nearest the cost: the rows the report shows. */
export function representativeRound(rounds: readonly RiskRound[], cost: number): RiskRound {
  const ratio = (r: RiskRound) => 1 - r.withRisk.requestsPerSecond / r.without.requestsPerSecond;
  return rounds.reduce((best, r) => (Math.abs(ratio(r) - cost) < Math.abs(ratio(best) - cost) ? r : best));
}

/**
 * Payments/s with the default rule set and without risk, `rounds` times: without then with, then
 * with then without, and so on (ABBA), so that neither half always runs on the larger database.
 */
export async function riskPaymentPhases(s: RiskPhaseSettings): Promise<RiskRound[]> {
  const gateway = await startGatewayProcess({ databaseUrl: s.schemaUrl, poolSize: s.poolSize });
  try {
    const phase = (name: string) => runPhase({ name, url: gateway.url, connections: s.connections, durationSeconds: s.durationSeconds, pid: gateway.pid, request: (i) => formRequest('/v1/payments', s.merchant.accessToken, riskyBody(s.merchant, i)) });
    await runPhase({ name: 'warm-up', url: gateway.url, connections: s.connections, durationSeconds: 3, pid: gateway.pid, request: (i) => formRequest('/v1/payments', s.merchant.accessToken, riskyBody(s.merchant, i)) });
    const rounds: RiskRound[] = [];
    for (let round = 0; round < s.rounds; round += 1) {
      const halves: Record<'withRisk' | 'without', PhaseResult | undefined> = { withRisk: undefined, without: undefined };
      for (const half of round % 2 === 0 ? (['without', 'withRisk'] as const) : (['withRisk', 'without'] as const)) {
        await setRiskEnabled(s.admin, s.merchant.entityId, half === 'withRisk');
        halves[half] = await phase(half === 'withRisk' ? 'POST /v1/payments DB, default risk rules' : 'POST /v1/payments DB, risk disabled');
      }
      rounds.push({ withRisk: halves.withRisk!, without: halves.without! });
    }
    return rounds;
  } finally {
    await gateway.stop();
  }
}

/** `attempts` rows over 100 000 keys within the last hour: about ten per key, as busy cards have. */
async function recordAttempts(admin: pg.Client, attempts: number): Promise<void> {
  await admin.query(
    `INSERT INTO risk_attempts (key_hash, at, amount_minor, currency, transaction_id)
     SELECT substr(md5((g % 100000)::text), 1, 32), now() - (g % 3600) * interval '1 second', 9200, 'EUR', lpad(g::text, 32, '0')
       FROM generate_series(1, $1::int) g`,
    [attempts],
  );
  await admin.query('ANALYZE risk_attempts');
}

/** `entries` blacklist entries of the merchant, e-mail addresses, as an operator's imported list. */
async function recordListEntries(admin: pg.Client, entityId: string, entries: number): Promise<void> {
  await admin.query(
    `INSERT INTO risk_list_entries (entity_id, list, kind, value, shown, added_by, added_at)
     SELECT $1, 'black', 'email', 'listed' || g || '@example.com', 'listed' || g || '@example.com', 'bench', now()
       FROM generate_series(1, $2::int) g`,
    [entityId, entries],
  );
  await admin.query('ANALYZE risk_list_entries');
}

/** The key of the n-th of the recorded keys (recordAttempts): each check counts a key with history. */
const key = (n: number) => createHash('md5').update(String(n % 100_000)).digest('hex');

/**
 * The engine's read timed alone, as a payment runs it with the default rule set: two velocity
 * counts and four list look-ups, against `attempts` recorded attempts and `listEntries` entries
 * on the merchant's blacklist. (The attempt's own rows are written with the pending payment.)
 */
export async function velocityCheckPhase(s: RiskPhaseSettings): Promise<PhaseResult> {
  await recordAttempts(s.admin, s.attempts);
  await recordListEntries(s.admin, s.merchant.entityId, s.listEntries);
  const storage = createPgStorage({ connectionString: s.schemaUrl, poolSize: 1 });
  const samples: number[] = [];
  try {
    const started = performance.now();
    for (let i = 0; i < s.checks; i += 1) {
      const n = Math.floor(Math.random() * 100_000);
      const now = new Date();
      const t0 = performance.now();
      await readFacts(storage, {
        counts: [{ i: 0, key: key(n), since: new Date(now.getTime() - 600_000), cap: 21, declines: false }, { i: 1, key: key(n + 1), since: new Date(now.getTime() - 3_600_000), cap: 101, declines: false }],
        currency: 'EUR',
        probes: [{ kind: 'card', value: 'f'.repeat(64) }, { kind: 'bin', value: '420000' }, { kind: 'email', value: `s${n}@example.com` }, { kind: 'ip', value: '10.0.0.1' }],
        listEntityIds: [s.merchant.entityId],
      });
      samples.push(performance.now() - t0);
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      name: `risk check (velocity counts, list look-ups), ${s.attempts.toLocaleString('en')} attempts and ${s.listEntries.toLocaleString('en')} list entries recorded`,
      connections: 1, durationSeconds: Math.round(seconds * 10) / 10, requests: s.checks, requestsPerSecond: Math.round(s.checks / seconds),
      latencyMs: latencySummary(samples), errors: 0, timeouts: 0, non2xx: 0, statusCodes: {},
    };
  } finally {
    await storage.close();
  }
}
