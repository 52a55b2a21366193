import type { LightMyRequestResponse } from 'fastify';
import type { Merchant } from './payments.js';
import { bearer, form, FORM_HEADERS, type TestApp } from './test-app.js';

/** A card without CVV: registrations store no CVV, so tests register without one by default. */
export const REGISTRATION_CARD = {
  paymentBrand: 'VISA',
  'card.number': '4200000000000000',
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
} as const;

export const SEPA_ACCOUNT = {
  paymentBrand: 'DIRECTDEBIT_SEPA',
  'bankAccount.holder': 'Jane Jones',
  'bankAccount.iban': 'DE23100000001234567890',
  'bankAccount.bic': 'MARKDEF1100',
  'bankAccount.country': 'DE',
  'bankAccount.mandate.id': 'MANDATE-JANE',
  'bankAccount.mandate.dateOfSignature': '2026-11-01',
} as const;

function post(t: TestApp, merchant: Merchant, url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS, ...headers }, payload: form({ entityId: merchant.entityId, ...fields }) });
}

export function postRegistration(t: TestApp, merchant: Merchant, fields: Record<string, string> = REGISTRATION_CARD, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return post(t, merchant, '/v1/registrations', fields, headers);
}

export function getRegistration(t: TestApp, merchant: Merchant, id: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: `/v1/registrations/${id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
}

export function deleteRegistration(t: TestApp, merchant: Merchant, id: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'DELETE', url: `/v1/registrations/${id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
}

export function payWithRegistration(t: TestApp, merchant: Merchant, id: string, fields: Record<string, string> = {}, paymentType = 'DB', amount = '12.00'): Promise<LightMyRequestResponse> {
  return post(t, merchant, `/v1/registrations/${id}/payments`, { amount, currency: 'EUR', paymentType, ...fields });
}
