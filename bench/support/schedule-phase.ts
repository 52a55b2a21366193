/**
 * Scheduled runs, as a row of `npm run bench`: `active` schedules on one gateway process (its
 * own job worker makes the runs), of which `due` fire in the same second; the others wait for a
 * later time of day. The due schedules recur (yearly, at that second), as a subscription's do:
 * each measured run moves its schedule on to its next fire time, the common case, rather than
 * ending it (an end takes the locked path with a SCHEDULE ENDED notification, which a business's
 * due runs seldom do). The row says how many due runs the runner makes per second (each a claim,
 * a MIT payment through the simulator with its outcome and notification, the run's record and the
 * next job) and how long after its fire time each payment was written (latency columns).
 */
import type pg from 'pg';
import { formRequest, runPhase, type PhaseResult } from '../load.js';
import { startGatewayProcess } from './gateway.js';
import { cpuTimeMs } from './node-process.js';
import { monotonicMicros } from './cpu-profile.js';
import type { Merchant } from './gateway-phases.js';

/** The last phase's runs, from just before the fire time to the last payment (monotonicMicros): a profile's window. */
export let runWindow: { fromUs: number; toUs: number } | undefined;

const REGISTRATIONS = 20;
const WAIT_LIMIT_MS = 300_000;
/** Time between the last due schedule's creation and the fire time: the runner starts from rest. */
const LEAD_MS = 3_000;

export interface SchedulePhaseSettings {
  readonly schemaUrl: string;
  readonly admin: pg.Client;
  readonly merchant: Merchant;
  readonly connections: number;
  readonly poolSize: number;
  /** Schedules active during the phase. */
  readonly active: number;
  /** Of those, the ones due at the same time: the first second of a second, or of a minute (`within`). */
  readonly due: number;
  /** 'minute': the due ones fire at a minute's first second, and the row says whether all were made within that minute. */
  readonly within?: 'second' | 'minute';
  /** Extra node flags of the gateway process (--cpu-prof for `npm run bench:schedules -- --profile`). */
  readonly nodeArgs?: readonly string[];
}

async function post(url: string, merchant: Merchant, path: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ entityId: merchant.entityId, ...fields }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function registrationsWithInitialCit(url: string, merchant: Merchant): Promise<string[]> {
  const card = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };
  const initial = { amount: '1.00', currency: 'EUR', paymentType: 'DB', 'card.cvv': '123', 'standingInstruction.type': 'RECURRING', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT' };
  const ids: string[] = [];
  for (let i = 0; i < REGISTRATIONS; i += 1) {
    const id = (await post(url, merchant, '/v1/registrations', card))['id'] as string;
    await post(url, merchant, `/v1/registrations/${id}/payments`, initial);
    ids.push(id);
  }
  return ids;
}

/** Quartz fields that fire at `at` (UTC) and every year after, at the same second. */
const yearlyAt = (at: Date) => `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} ? *`;

function createSchedules(url: string, merchant: Merchant, registrations: readonly string[], count: number, expression: string, label: string, connections: number, pid: number) {
  return runPhase({
    name: label,
    url,
    connections: Math.min(connections, count),
    amount: count,
    pid,
    request: (i) => formRequest('/scheduling/v1/schedules', merchant.accessToken, {
      entityId: merchant.entityId, registrationId: registrations[i % registrations.length]!, amount: '4.00', currency: 'EUR', paymentType: 'DB', 'job.expression': expression,
    }),
  });
}

/**
 * `count` copies of a schedule made through the API, written by one statement: each with its own
 * id (and its own transaction row, which a schedule's id names), its own job for the same firing.
 * The API makes about three hundred schedules a second on this machine, so a hundred thousand
 * would take the minute row ten minutes to set up; their runs are what the row measures.
 */
async function copySchedule(admin: pg.Client, templateId: string, count: number): Promise<void> {
  await admin.query(
    `WITH ids AS (SELECT md5(random()::text || clock_timestamp()::text || g) AS id, nextval(pg_get_serial_sequence('jobs', 'id')) AS job_id FROM generate_series(1, $2) g),
     transaction AS (
       INSERT INTO transactions SELECT (jsonb_populate_record(NULL::transactions, to_jsonb(t) || jsonb_build_object('id', i.id))).*
         FROM transactions t, ids i WHERE t.id = $1),
     schedule AS (
       INSERT INTO schedules SELECT (jsonb_populate_record(NULL::schedules, to_jsonb(s) || jsonb_build_object('id', i.id, 'job_id', i.job_id))).*
         FROM schedules s, ids i WHERE s.id = $1)
     INSERT INTO jobs (id, kind, payload, run_at, created_at) OVERRIDING SYSTEM VALUE
     SELECT i.job_id, j.kind, j.payload || jsonb_build_object('scheduleId', i.id), j.run_at, j.created_at
       FROM jobs j JOIN schedules s ON s.job_id = j.id AND s.id = $1, ids i`,
    [templateId, count],
  );
}

/** The schedules made for `from` (and their jobs) fire at `to` instead, and every year after at that second. */
async function moveDueTo(admin: pg.Client, from: Date, to: Date): Promise<void> {
  await admin.query(
    `WITH moved AS (UPDATE schedules SET fire_at = $2, expression = $3 WHERE status = 'active' AND fire_at = $1 RETURNING job_id)
     UPDATE jobs j SET run_at = $2, payload = j.payload || jsonb_build_object('fireAt', $4::text) FROM moved WHERE j.id = moved.job_id`,
    [from, to, yearlyAt(to), to.toISOString()],
  );
}

/** The schedules due at `fireAt`, counted before it: those the creation made. */
async function dueSchedules(admin: pg.Client, fireAt: Date): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM schedules WHERE status = 'active' AND fire_at = $1`, [fireAt]);
  return Number(rows[0]!.n);
}

/**
 * Due runs not made yet: the due schedules less the first attempts recorded for that fire time. A
 * recurring schedule stays active once run (its fire_at moves a year on), and a run declined
 * softly would keep the fire time for a retry hours later: neither is a run still to wait for.
 */
async function dueLeft(admin: pg.Client, fireAt: Date, due: number): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM schedule_runs WHERE fire_at = $1 AND attempt = 0`, [fireAt]);
  return due - Number(rows[0]!.n);
}

export async function schedulePhase(settings: SchedulePhaseSettings): Promise<PhaseResult> {
  const gateway = await startGatewayProcess({ databaseUrl: settings.schemaUrl, poolSize: settings.poolSize, env: { WORKER_POLL_INTERVAL_MS: '100' }, ...(settings.nodeArgs ? { nodeArgs: settings.nodeArgs } : {}) });
  try {
    const registrations = await registrationsWithInitialCit(gateway.url, settings.merchant);
    // The schedules that stay waiting: daily, twelve hours away from the due second.
    const waiting = new Date(Date.now() + 12 * 3_600_000);
    const idle = await createSchedules(gateway.url, settings.merchant, registrations, settings.active - settings.due, `0 ${waiting.getUTCMinutes()} ${waiting.getUTCHours()} * * ? *`, `setup: ${settings.active - settings.due} waiting schedules (not counted)`, settings.connections, gateway.pid);
    // The due ones fire all in one second (and yearly after), a little after the last is created (at the rate just seen).
    const creationMs = (settings.due / Math.max(1, idle.requestsPerSecond)) * 1_000 * 2;
    const alignMs = settings.within === 'minute' ? 60_000 : 1_000;
    let fireAt = new Date(Math.ceil((Date.now() + creationMs + LEAD_MS) / alignMs) * alignMs);
    const copied = settings.within === 'minute' ? settings.due - 1 : 0;
    // The minute row's template is made for a time hours away, copied, and then all are moved to the fire time.
    const madeFor = copied > 0 ? new Date(fireAt.getTime() + 6 * 3_600_000) : fireAt;
    const created = await createSchedules(gateway.url, settings.merchant, registrations, settings.due - copied, yearlyAt(madeFor), `setup: ${settings.due - copied} schedules due at one second (not counted)`, settings.connections, gateway.pid);
    if (copied > 0) {
      const { rows } = await settings.admin.query<{ id: string }>(`SELECT id FROM schedules WHERE fire_at = $1 LIMIT 1`, [madeFor]);
      await copySchedule(settings.admin, rows[0]!.id, copied);
      // Moving a hundred thousand rows takes seconds: a fire time at least 15 s on.
      fireAt = new Date(Math.ceil((Date.now() + LEAD_MS + 15_000) / 60_000) * 60_000);
      await moveDueTo(settings.admin, madeFor, fireAt);
    }
    const due = await dueSchedules(settings.admin, fireAt);
    if (Date.now() >= fireAt.getTime()) throw new Error('the due schedules were created after their fire time: the machine is slower than the setup rate said');
    const deadline = fireAt.getTime() + WAIT_LIMIT_MS;
    // The gateway's CPU from just before the fire time to the last run: its cost per run.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, fireAt.getTime() - Date.now() - 50)));
    const cpuBeforeMs = cpuTimeMs(gateway.pid);
    const fromUs = monotonicMicros();
    while (Date.now() < fireAt.getTime() || ((await dueLeft(settings.admin, fireAt, due)) > 0 && Date.now() < deadline)) await new Promise((resolve) => setTimeout(resolve, 100));
    const cpuAfterMs = cpuTimeMs(gateway.pid);
    runWindow = { fromUs, toUs: monotonicMicros() };
    const { rows } = await settings.admin.query<{ n: string; seconds: number; p50: number; p99: number; p999: number; max: number }>(
      `SELECT count(*) AS n,
              GREATEST(EXTRACT(EPOCH FROM max(t.created_at) - $1::timestamptz)::float8, 0.001) AS seconds,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY d.ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY d.ms) AS p99,
              percentile_cont(0.999) WITHIN GROUP (ORDER BY d.ms) AS p999, max(d.ms) AS max
         FROM schedule_runs r JOIN transactions t ON t.id = r.transaction_id
         CROSS JOIN LATERAL (SELECT EXTRACT(EPOCH FROM t.created_at - r.fire_at)::float8 * 1000 AS ms) d
        WHERE r.fire_at = $1`,
      [fireAt],
    );
    const row = rows[0]!;
    const made = Number(row.n);
    return {
      name: settings.within === 'minute'
        ? `scheduled runs, ${settings.due} due in one minute (all at its first second, ${settings.active} active; latency: fire time → payment)`
        : `scheduled runs (${settings.due} due in one second, ${settings.active} active; latency: fire time → payment)`,
      connections: settings.connections,
      durationSeconds: row.seconds,
      requests: made,
      requestsPerSecond: Math.round(made / row.seconds),
      latencyMs: { p50: Math.round(row.p50 ?? 0), p99: Math.round(row.p99 ?? 0), p99_9: Math.round(row.p999 ?? 0), max: Math.round(row.max ?? 0) },
      errors: settings.due - made,
      timeouts: 0,
      non2xx: idle.non2xx + created.non2xx,
      statusCodes: created.statusCodes,
      ...(cpuBeforeMs !== undefined && cpuAfterMs !== undefined && made > 0 ? { cpuMsPerRequest: (cpuAfterMs - cpuBeforeMs) / made } : {}),
    };
  } finally {
    await gateway.stop('SIGTERM');
  }
}
