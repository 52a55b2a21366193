import type { LightMyRequestResponse } from 'fastify';
import { bearer, form, FORM_HEADERS, type TestApp } from './test-app.js';

/** The typical sample card of the compatibility reference. */
export const SAMPLE_CARD = {
  paymentBrand: 'VISA',
  'card.number': '4200000000000000',
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
} as const;

export interface Merchant {
  readonly entityId: string;
  readonly accessToken: string;
}

export function postPayment(t: TestApp, merchant: Merchant, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/v1/payments',
    headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS, ...headers },
    payload: form({ entityId: merchant.entityId, ...fields }),
  });
}

export function cardPayment(t: TestApp, merchant: Merchant, paymentType: string, amount: string, extra: Record<string, string> = {}) {
  return postPayment(t, merchant, { amount, currency: 'EUR', paymentType, ...SAMPLE_CARD, ...extra });
}

export function referencePayment(t: TestApp, merchant: Merchant, id: string, paymentType: string, amount?: string, extra: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/payments/${id}`,
    headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
    payload: form({ entityId: merchant.entityId, paymentType, ...(amount ? { amount, currency: 'EUR' } : {}), ...extra }),
  });
}

export function getPayment(t: TestApp, merchant: Merchant, id: string) {
  return t.app.inject({ method: 'GET', url: `/v1/payments/${id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
}

export const SUCCESS_PATTERN = /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/;
