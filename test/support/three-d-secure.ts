import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { bearer, form, FORM_HEADERS, TEST_ADMIN_TOKEN } from './test-app.js';

/** What a 3-D Secure v2 authentication needs besides the card: the shopper's browser and billing address. */
export const BROWSER = {
  'customer.browser.acceptHeader': 'text/html',
  'customer.browser.language': 'de-DE',
  'customer.browser.screenHeight': '1080',
  'customer.browser.screenWidth': '1920',
  'customer.browser.timezone': '-60',
  'customer.browser.userAgent': 'Mozilla/5.0 (X11; Linux x86_64)',
  'customer.browser.javaEnabled': 'false',
  'billing.street1': 'Hauptstrasse 1',
  'billing.city': 'Berlin',
  'billing.postcode': '10115',
  'billing.country': 'DE',
} as const;

/**
 * Sets an entity's 3-D Secure requirement through the admin API (as an operator does) and checks
 * it took. `headers` adds e.g. `x-forwarded-proto: https` for a live-system app.
 */
export async function setThreeDSecureRequirement(app: { inject: FastifyInstance['inject'] }, entityId: string, requirement: string, headers: Record<string, string> = {}): Promise<void> {
  const set = await app.inject({ method: 'PUT', url: `/admin/entities/${entityId}/three-d-secure`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS, ...headers }, payload: form({ requirement }) });
  assert.equal(set.statusCode, 200, set.body);
}
