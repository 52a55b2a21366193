import type { LightMyRequestResponse } from 'fastify';
import { silentLogger } from '../../src/jobs/job-types.js';
import { JobWorker } from '../../src/jobs/job-worker.js';
import { runScheduleHandler } from '../../src/jobs/run-schedule.js';
import type { Clock } from '../../src/domain/ids.js';
import type { Merchant } from './payments.js';
import { payWithRegistration, postRegistration } from './registrations.js';
import { bearer, form, FORM_HEADERS, type TestApp } from './test-app.js';

const INITIAL_CIT = { 'standingInstruction.type': 'RECURRING', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT', 'card.cvv': '123' };

/** A registered card whose INITIAL CIT succeeded: what a schedule's MIT runs need. */
export async function registrationWithInitialCit(t: TestApp, merchant: Merchant): Promise<string> {
  const registration = await postRegistration(t, merchant);
  const id = registration.json().id as string;
  const initial = await payWithRegistration(t, merchant, id, INITIAL_CIT, 'DB', '10.00');
  if (initial.statusCode !== 200) throw new Error(`initial CIT failed: ${initial.body}`);
  return id;
}

function post(t: TestApp, merchant: Merchant, url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, ...fields }) });
}

export function postSchedule(t: TestApp, merchant: Merchant, registrationId: string, fields: Record<string, string>, amount = '12.00'): Promise<LightMyRequestResponse> {
  return post(t, merchant, '/scheduling/v1/schedules', { registrationId, amount, currency: 'EUR', paymentType: 'DB', ...fields });
}

export function reschedule(t: TestApp, merchant: Merchant, id: string, fields: Record<string, string>) {
  return post(t, merchant, `/scheduling/v1/schedules/${id}/reschedule`, fields);
}

export function deschedule(t: TestApp, merchant: Merchant, id: string) {
  return post(t, merchant, `/scheduling/v1/schedules/${id}/deschedule`, {});
}

export function advance(t: TestApp, merchant: Merchant, id: string, to: string) {
  return post(t, merchant, `/scheduling/v1/schedules/${id}/advance`, { to });
}

export function getSchedule(t: TestApp, merchant: Merchant, id: string) {
  return t.app.inject({ method: 'GET', url: `/scheduling/v1/schedules/${id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
}

export function listSchedules(t: TestApp, merchant: Merchant, registrationId: string) {
  return t.app.inject({ method: 'GET', url: `/scheduling/v1/schedules?entityId=${merchant.entityId}&registrationId=${registrationId}`, headers: bearer(merchant.accessToken) });
}

/** A job worker that makes the due runs of schedules with the app's payment operations. */
export function scheduleWorker(t: TestApp, clock: Clock = t.clock, pollIntervalMs = 5): JobWorker {
  return new JobWorker({
    concurrency: 32,
    batchSize: 32,
    pollIntervalMs,
    leaseMs: 60_000,
    sweepIntervalMs: 30_000,
    storage: t.storage,
    clock,
    logger: silentLogger,
    handlers: [runScheduleHandler({ payments: t.app.gateway.payments, settings: t.config.schedules, logger: silentLogger })],
  });
}

/** Runs due jobs until none is left. */
export async function drain(worker: JobWorker): Promise<number> {
  let total = 0;
  for (let ran = await worker.runOnce(); ran > 0; ran = await worker.runOnce()) total += ran;
  return total;
}
