import assert from 'node:assert/strict';
import type { ReceivedNotification } from '../../support/webhook-receiver.js';
import type { GatewayWithWebhook, Merchant } from './gateway.js';

/** A call the merchant's server makes: form-encoded with its bearer token; GETs carry entityId. */
export async function merchantCall(gatewayUrl: string, merchant: Merchant, method: 'GET' | 'POST', path: string, fields?: Record<string, string>): Promise<{ status: number; body: Record<string, any> }> {
  const url = new URL(path, gatewayUrl);
  if (method === 'GET') url.searchParams.set('entityId', merchant.entityId);
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${merchant.accessToken}`, ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(fields ? { body: new URLSearchParams({ entityId: merchant.entityId, ...fields }).toString() } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

export const CHECKOUT_ID = /^[0-9A-F]{32}\.[A-Za-z0-9-]+$/;

/** POST /v1/checkouts with integrity=true: the checkout id and the script's integrity. */
export async function createCheckout(env: GatewayWithWebhook, fields: Record<string, string> = {}): Promise<{ id: string; integrity: string }> {
  const answer = await merchantCall(env.gateway.url, env.merchant, 'POST', '/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB', integrity: 'true', ...fields });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body['result']?.code, '000.200.100', JSON.stringify(answer.body));
  assert.match(String(answer.body['id']), CHECKOUT_ID);
  assert.match(String(answer.body['integrity']), /^sha384-/);
  return { id: answer.body['id'], integrity: answer.body['integrity'] };
}

/** The PAYMENT notification of `paymentId` that carries `code`, once it arrives (decrypted by the receiver). */
export async function paymentNotification(env: GatewayWithWebhook, paymentId: string, code: string, timeoutMs = 15_000): Promise<ReceivedNotification> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = env.notificationsOf(paymentId).find((n) => (n.body.payload['result'] as { code?: string } | undefined)?.code === code);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = env.notificationsOf(paymentId).map((n) => `${n.body.action ?? '-'} ${JSON.stringify(n.body.payload['result'])}`);
      throw new Error(`no PAYMENT notification of ${paymentId} with ${code} within ${timeoutMs} ms; seen: ${seen.join(', ') || 'none'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
