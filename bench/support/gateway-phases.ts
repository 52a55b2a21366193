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

/** An asynchronous payment's first answer: pending with a redirect (the simulated PayPal). */
export function asyncPaymentPhase(name: string, settings: PhaseSettings, merchant: Merchant): Promise<PhaseResult> {
  return runPhase({
    name,
    ...settings,
    request: (i) => formRequest('/v1/payments', merchant.accessToken, {
      entityId: merchant.entityId, paymentType: 'DB', amount: '92.00', currency: 'EUR', paymentBrand: 'PAYPAL',
      shopperResultUrl: 'https://shop.example.com/result', merchantTransactionId: `bench-async-${i}`,
    }),
  });
}

/** The open redirects of one kind: a provider's page (PAYPAL) or the simulated ACS's challenge page. */
export async function openRedirectIds(admin: pg.Client, purpose: 'provider' | 'challenge' = 'provider', limit = 100_000): Promise<string[]> {
  const { rows } = await admin.query<{ id: string }>(`SELECT id FROM shopper_redirects WHERE state = 'open' AND purpose = $1 ORDER BY created_at LIMIT $2`, [purpose, limit]);
  return rows.map((row) => row.id);
}

/**
 * The shopper's choice on a simulated page, each open redirect once (a second time would be a
 * 410): the 303 to shopperResultUrl is the page's success; anything else counts as a failure.
 */
export async function redirectChoicePhase(name: string, settings: PhaseSettings, page: string, outcome: string, redirectIds: readonly string[]): Promise<PhaseResult> {
  const phase = await runPhase({
    name,
    ...settings,
    amount: redirectIds.length,
    request: (i) => formRequest(`${page}/${redirectIds[i % redirectIds.length]}`, '', { outcome }),
  });
  return { ...phase, non2xx: phase.requests - (phase.statusCodes['303'] ?? 0) };
}

/** The shopper's approval on the provider page. */
export function completionPhase(settings: PhaseSettings, redirectIds: readonly string[]): Promise<PhaseResult> {
  return redirectChoicePhase('POST provider page outcome=approve (each answers 303)', settings, '/v1/simulator/provider', 'approve', redirectIds);
}

/** Start and completion as one round trip: the rate at which a gateway doing both would finish them. */
export function roundTripOf(start: PhaseResult, complete: PhaseResult): PhaseResult {
  const perSecond = 1 / (1 / start.requestsPerSecond + 1 / complete.requestsPerSecond);
  const sum = (pick: (p: PhaseResult) => number) => pick(start) + pick(complete);
  return {
    ...complete,
    name: 'redirect round trip (start + complete)',
    requests: Math.min(start.requests, complete.requests),
    requestsPerSecond: perSecond,
    latencyMs: { p50: sum((p) => p.latencyMs.p50), p99: sum((p) => p.latencyMs.p99), p99_9: sum((p) => p.latencyMs.p99_9), max: sum((p) => p.latencyMs.max) },
    errors: sum((p) => p.errors),
    timeouts: sum((p) => p.timeouts),
    non2xx: start.non2xx + complete.non2xx,
  };
}

/** POST /v1/checkouts as a merchant's server prepares the widget: checkouts created per second. */
export function checkoutPhase(settings: PhaseSettings, merchant: Merchant): Promise<PhaseResult> {
  return runPhase({
    name: 'POST /v1/checkouts',
    ...settings,
    request: (i) => formRequest('/v1/checkouts', merchant.accessToken, {
      entityId: merchant.entityId, paymentType: 'DB', amount: '92.00', currency: 'EUR',
      shopperResultUrl: 'https://shop.example.com/result', merchantTransactionId: `bench-checkout-${i}`,
    }),
  });
}

export async function openCheckoutIds(admin: pg.Client, limit = 100_000): Promise<string[]> {
  const { rows } = await admin.query<{ id: string }>(`SELECT id FROM checkouts WHERE state = 'open' AND attempt_id IS NULL ORDER BY created_at LIMIT $1`, [limit]);
  return rows.map((row) => row.id);
}

/** The widget's card payment, each checkout once (a second would find it paid). */
export function widgetPaymentPhase(settings: PhaseSettings, checkoutIds: readonly string[]): Promise<PhaseResult> {
  const { paymentBrand, ...card } = SAMPLE_CARD;
  return runPhase({
    name: 'POST /v1/checkouts/{id}/payment (widget, card)',
    ...settings,
    amount: checkoutIds.length,
    request: (i) => formRequest(`/v1/checkouts/${checkoutIds[i % checkoutIds.length]}/payment`, '', { paymentBrand, ...card }),
  });
}
