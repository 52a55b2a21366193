import { endpointCatalogue } from '../../../src/catalogue/catalogue.js';
import { concreteName } from '../../../src/catalogue/names.js';
import type { Endpoint, ParameterRow } from '../../../src/catalogue/types.js';

/** Shared data of the catalogue tests: the clock, and requests built from the rows' own samples. */

export const NOW = new Date('2026-11-22T10:00:00Z');
export const CONTEXT = { now: NOW } as const;
export const ENTITY_ID = '8a8294174b7ecb28014b9699220015ca';

/** The concrete name a row's sample uses: index 0, the key format's sample key. */
export function sampleName(row: ParameterRow): string {
  return concreteName(row.name, [], row.keyFormat?.sample ?? 'key');
}

/**
 * Rows left out of an endpoint's full request because a rule forbids them beside the others:
 * a query names a merchantTransactionId or a time frame, never both.
 */
const LEFT_OUT: Partial<Record<Endpoint, readonly string[]>> = {
  query: ['merchantTransactionId'],
};

export function fullRequestRows(endpoint: Endpoint): ParameterRow[] {
  const leftOut = LEFT_OUT[endpoint] ?? [];
  return endpointCatalogue(endpoint)
    .rows.map((entry) => entry.row)
    .filter((row) => !leftOut.includes(row.name));
}

/** Every parameter the endpoint accepts, each with its row's valid sample. */
export function fullRequest(endpoint: Endpoint): Record<string, string> {
  const body: Record<string, string> = {};
  for (const row of fullRequestRows(endpoint)) body[sampleName(row)] = row.validSample;
  return body;
}

export const MINIMAL: Readonly<Record<Endpoint, Readonly<Record<string, string>>>> = {
  payment: { entityId: ENTITY_ID, amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA' },
  referencing: { entityId: ENTITY_ID, paymentType: 'RV' },
  registration: { entityId: ENTITY_ID, paymentBrand: 'VISA' },
  registrationPayment: { entityId: ENTITY_ID, amount: '92.00', currency: 'EUR', paymentType: 'DB' },
  checkout: { entityId: ENTITY_ID, amount: '92.00', currency: 'EUR', paymentType: 'DB' },
  checkoutPayment: { paymentBrand: 'VISA' },
  query: { entityId: ENTITY_ID },
  schedule: { entityId: ENTITY_ID, amount: '92.00', currency: 'EUR', paymentType: 'DB', registrationId: '8a82944a4cc25ebf014cc2c782423202', 'job.dayOfMonth': '1' },
  reporting: { entityId: ENTITY_ID, 'date.from': '2034-05-01', 'date.to': '2034-05-31' },
};

/** A valid card for MINIMAL.payment. */
export const VISA_CARD: Readonly<Record<string, string>> = {
  'card.number': '4200000000000000',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
  'card.holder': 'Jane Jones',
};

/** The partial number with the Luhn check digit appended. */
export function withLuhnDigit(partial: string): string {
  for (let digit = 0; digit <= 9; digit += 1) {
    const candidate = `${partial}${digit}`;
    let sum = 0;
    [...candidate].reverse().forEach((character, index) => {
      const value = Number(character) * (index % 2 === 1 ? 2 : 1);
      sum += value > 9 ? value - 9 : value;
    });
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('unreachable');
}
