/**
 * The resolution of pending payments, as a row of `npm run bench`: `count` DBs that the simulator
 * leaves without an answer (9.99) are made through one gateway whose status checks would come
 * minutes later; a second gateway, whose first check comes after a second, then finds them all
 * due at once (as after an acquirer's outage), and the row says how many its sweep and status
 * checks end per second (each a status query, the outcome and its notification under the row
 * lock) and how long after the first check was handed out each one ended (latency columns).
 * Until 2026-11-28 the same gateway made and resolved them, so checks fell due only as fast as
 * the payments were made, and the row could not say more than that rate (docs/performance.md).
 */
import type pg from 'pg';
import { formRequest, runPhase, type PhaseResult } from '../load.js';
import { SWEEP_PENDING_JOB } from '../../src/storage/repositories/pending-checks.js';
import { startGatewayProcess } from './gateway.js';
import { cardPaymentBody, type Merchant } from './gateway-phases.js';

/** Checks due one second after creation (the connector's own limit is shorter), swept every 100 ms by a worker that polls as often. */
const FIRST_CHECK_MINUTES = 1 / 60;
const FAST_RESOLUTION = {
  CONNECTOR_TIMEOUT_MS: '500',
  PENDING_CHECK_DELAYS_MINUTES: String(FIRST_CHECK_MINUTES.toFixed(3)),
  PENDING_SWEEP_INTERVAL_MS: '100',
  // The sweep is a job: a worker that looked for due jobs every 500 ms (the default) would run it at that pace.
  WORKER_POLL_INTERVAL_MS: '100',
};
const WAIT_LIMIT_MS = 120_000;

export interface ResolutionSettings {
  readonly schemaUrl: string;
  readonly admin: pg.Client;
  readonly merchant: Merchant;
  readonly connections: number;
  readonly poolSize: number;
  readonly count: number;
  /** Extra node flags of the gateway process (--cpu-prof for `npm run bench:resolution -- --profile`). */
  readonly nodeArgs?: readonly string[];
}

async function pending(admin: pg.Client): Promise<number> {
  // Only this phase's payments: other rows (an asynchronous payment made as an earlier phase
  // ended, still waiting for its shopper) are not the status checks' to end.
  const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE status = 'pending' AND merchant_transaction_id LIKE 'bench-pending-%'`);
  return Number(rows[0]!.n);
}

async function makePending(settings: ResolutionSettings): Promise<PhaseResult> {
  // Checks minutes away (the default delays): none runs while the payments are made.
  const gateway = await startGatewayProcess({ databaseUrl: settings.schemaUrl, poolSize: settings.poolSize, env: { CONNECTOR_TIMEOUT_MS: FAST_RESOLUTION.CONNECTOR_TIMEOUT_MS } });
  try {
    return await runPhase({
      name: `setup: ${settings.count} pending DBs (not counted)`,
      url: gateway.url,
      connections: settings.connections,
      amount: settings.count,
      pid: gateway.pid,
      request: (i) => formRequest('/v1/payments', settings.merchant.accessToken, { ...cardPaymentBody(settings.merchant, 'DB', i), amount: '9.99', merchantTransactionId: `bench-pending-${i}` }),
    });
  } finally {
    await gateway.stop();
  }
}

export async function resolutionPhase(settings: ResolutionSettings): Promise<PhaseResult> {
  const created = await makePending(settings);
  // Past their first delay by now: the resolving gateway's first sweeps hand them all out. The
  // sweep is one durable job, which the first gateway planned a minute (its interval) ahead.
  await new Promise((resolve) => setTimeout(resolve, FIRST_CHECK_MINUTES * 60_000));
  await settings.admin.query(`UPDATE jobs SET run_at = now() WHERE kind = $1`, [SWEEP_PENDING_JOB]);
  const gateway = await startGatewayProcess({ databaseUrl: settings.schemaUrl, poolSize: settings.poolSize, env: FAST_RESOLUTION, ...(settings.nodeArgs ? { nodeArgs: settings.nodeArgs } : {}) });
  try {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    while ((await pending(settings.admin)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const left = await pending(settings.admin);
    const { rows } = await settings.admin.query<{ n: string; seconds: number; p50: number; p99: number; p999: number; max: number }>(
      `WITH first AS (SELECT min(created_at) AS at FROM pending_checks)
       SELECT count(*) AS n,
              EXTRACT(EPOCH FROM max(c.resolved_at) - (SELECT at FROM first))::float8 AS seconds,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY d.ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY d.ms) AS p99,
              percentile_cont(0.999) WITHIN GROUP (ORDER BY d.ms) AS p999, max(d.ms) AS max
         FROM pending_checks c
         CROSS JOIN LATERAL (SELECT EXTRACT(EPOCH FROM c.resolved_at - (SELECT at FROM first))::float8 * 1000 AS ms) d
        WHERE c.resolved_by = 'status'`,
    );
    const row = rows[0]!;
    const resolved = Number(row.n);
    return {
      name: `pending resolution (${settings.count} status checks due at once, 9.99 DBs; latency: first check handed out → ended)`,
      connections: settings.connections,
      durationSeconds: row.seconds,
      requests: resolved,
      requestsPerSecond: row.seconds > 0 ? Math.round(resolved / row.seconds) : 0,
      latencyMs: { p50: Math.round(row.p50), p99: Math.round(row.p99), p99_9: Math.round(row.p999), max: Math.round(row.max) },
      errors: left,
      timeouts: 0,
      non2xx: created.non2xx,
      statusCodes: created.statusCodes,
    };
  } finally {
    await gateway.stop('SIGTERM');
  }
}
