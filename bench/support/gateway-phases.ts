/**
 * The gateway's load phases: DB payments with a card on the simulator, GET of those payments,
 * captures of PAs created beforehand and refunds of the DBs of the first phase.
 */
import type pg from 'pg';
import { formRequest, getRequest, runPhase, type PhaseResult } from '../load.js';
import { SAMPLE_CARD } from '../../test/support/payments.js';

export interface Merchant {
  readonly entityId: string;
  readonly accessToken: string;
}

export interface PhaseSettings {
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly pid: number;
}

/** The compatibility reference's sample card; the simulator approves it. 92.00 hits no special row. */
export const CARD_PAYMENT = { amount: '92.00', currency: 'EUR', ...SAMPLE_CARD } as const;

/** Captures and refunds take 1.00 of 92.00, so one parent takes 92 of them before it is used up. */
const CHILD_AMOUNT = '1.00';

export function cardPaymentBody(merchant: Merchant, paymentType: 'DB' | 'PA', index: number): Record<string, string> {
  return { entityId: merchant.entityId, paymentType, ...CARD_PAYMENT, merchantTransactionId: `bench-${paymentType}-${index}` };
}

export function paymentPhase(name: string, settings: PhaseSettings, merchant: Merchant, paymentType: 'DB' | 'PA', amount?: number): Promise<PhaseResult> {
  return runPhase({
    name,
    ...settings,
    ...(amount !== undefined ? { amount } : {}),
    request: (i) => formRequest('/v1/payments', merchant.accessToken, cardPaymentBody(merchant, paymentType, i)),
  });
}

export function getPhase(settings: PhaseSettings, merchant: Merchant, ids: readonly string[]): Promise<PhaseResult> {
  return runPhase({
    name: 'GET /v1/payments/{id}',
    ...settings,
    request: (i) => getRequest(`/v1/payments/${ids[i % ids.length]}?entityId=${merchant.entityId}`, merchant.accessToken),
  });
}

/** CP or RF of 1.00, round-robin over the parents so that concurrent requests rarely share a row lock. */
export function referencePhase(name: string, settings: PhaseSettings, merchant: Merchant, paymentType: 'CP' | 'RF', parentIds: readonly string[]): Promise<PhaseResult> {
  return runPhase({
    name,
    ...settings,
    request: (i) => formRequest(`/v1/payments/${parentIds[i % parentIds.length]}`, merchant.accessToken, {
      entityId: merchant.entityId, paymentType, amount: CHILD_AMOUNT, currency: 'EUR',
    }),
  });
}

export async function successfulIds(admin: pg.Client, paymentType: string, limit = 100_000): Promise<string[]> {
  const { rows } = await admin.query<{ id: string }>(
    `SELECT id FROM transactions WHERE payment_type = $1 AND status = 'success' ORDER BY created_at LIMIT $2`, [paymentType, limit]);
  return rows.map((row) => row.id);
}

/** A stored successful DB: the template of the insert floor's rows. */
export async function storedPaymentRow(admin: pg.Client): Promise<Record<string, unknown>> {
  const { rows } = await admin.query(`SELECT * FROM transactions WHERE payment_type = 'DB' AND status = 'success' LIMIT 1`);
  if (!rows[0]) throw new Error('no successful DB to copy for the insert floor');
  return rows[0] as Record<string, unknown>;
}
