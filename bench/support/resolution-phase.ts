/**
 * The resolution of pending payments, as a row of `npm run bench`: `count` DBs that the simulator
 * leaves without an answer (9.99) are made through a gateway whose first status check comes
 * after a second, and the row says how many the sweep and the status checks end per second (each
 * a status query, the outcome and its notification under the row lock) and how long after it was
 * due each one ended (latency columns).
 */
import type pg from 'pg';
import { formRequest, runPhase, type PhaseResult } from '../load.js';
import { startGatewayProcess } from './gateway.js';
import { cardPaymentBody, type Merchant } from './gateway-phases.js';

/** Checks due one second after creation (the connector's own limit is shorter), swept every 100 ms. */
const FIRST_CHECK_MINUTES = 1 / 60;
const FAST_RESOLUTION = {
  CONNECTOR_TIMEOUT_MS: '500',
  PENDING_CHECK_DELAYS_MINUTES: String(FIRST_CHECK_MINUTES.toFixed(3)),
  PENDING_SWEEP_INTERVAL_MS: '100',
};
const WAIT_LIMIT_MS = 120_000;

export interface ResolutionSettings {
  readonly schemaUrl: string;
  readonly admin: pg.Client;
  readonly merchant: Merchant;
  readonly connections: number;
  readonly poolSize: number;
  readonly count: number;
}

async function pending(admin: pg.Client): Promise<number> {
  // Only this phase's payments: other rows (an asynchronous payment made as an earlier phase
  // ended, still waiting for its shopper) are not the status checks' to end.
  const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE status = 'pending' AND merchant_transaction_id LIKE 'bench-pending-%'`);
  return Number(rows[0]!.n);
}

export async function resolutionPhase(settings: ResolutionSettings): Promise<PhaseResult> {
  const gateway = await startGatewayProcess({ databaseUrl: settings.schemaUrl, poolSize: settings.poolSize, env: FAST_RESOLUTION });
  try {
    const created = await runPhase({
      name: `setup: ${settings.count} pending DBs (not counted)`,
      url: gateway.url,
      connections: settings.connections,
      amount: settings.count,
      pid: gateway.pid,
      request: (i) => formRequest('/v1/payments', settings.merchant.accessToken, { ...cardPaymentBody(settings.merchant, 'DB', i), amount: '9.99', merchantTransactionId: `bench-pending-${i}` }),
    });
    const deadline = Date.now() + WAIT_LIMIT_MS;
    while ((await pending(settings.admin)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const left = await pending(settings.admin);
    const { rows } = await settings.admin.query<{ n: string; seconds: number; p50: number; p99: number; p999: number; max: number }>(
      `SELECT count(*) AS n,
              EXTRACT(EPOCH FROM max(c.resolved_at) - min(c.created_at))::float8 AS seconds,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY d.ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY d.ms) AS p99,
              percentile_cont(0.999) WITHIN GROUP (ORDER BY d.ms) AS p999, max(d.ms) AS max
         FROM pending_checks c JOIN transactions t ON t.id = c.transaction_id
         CROSS JOIN LATERAL (SELECT EXTRACT(EPOCH FROM c.resolved_at - t.created_at)::float8 * 1000 - $1::float8 AS ms) d
        WHERE c.resolved_by = 'status'`,
      [FIRST_CHECK_MINUTES * 60_000],
    );
    const row = rows[0]!;
    const resolved = Number(row.n);
    return {
      name: 'pending resolution (status checks, 9.99 DBs)',
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
    await gateway.stop();
  }
}
