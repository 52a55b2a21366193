import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PaymentRequest } from '../../../src/catalogue/request-types.generated.js';
import type { PaymentDeps } from '../../../src/operations/deps.js';
import { authenticationAfterRisk } from '../../../src/operations/payments/create-payment.js';
import type { PaymentAuthentication, PaymentAuthenticationInput } from '../../../src/operations/three-d-secure/authenticate-payment.js';

const ALWAYS = { mode: 'always' } as const;
const IDS = { dsTransactionId: 'ds', acsTransactionId: 'acs' };
const DATA = { eci: '05', version: '2.2.0', dsTransactionId: 'ds', acsTransactionId: 'acs', status: 'Y' } as const;
const REJECTED: PaymentAuthentication = { kind: 'refuse', code: '800.300.200' };

/** The live system's deps: no 3-D Secure server, so an authentication asked for again refuses (000.400.104). */
const deps = {
  system: 'live',
  threeDSecure: undefined,
  threeDSecureSettings: { requirementOf: async () => ({ mode: 'if-enrolled' }) },
  ids: { id: () => 'f'.repeat(32) },
} as unknown as PaymentDeps;

const input: PaymentAuthenticationInput = {
  entityId: 'e'.repeat(32),
  request: {} as PaymentRequest,
  method: { data: { kind: 'card', card: { number: '4200000000000000', expiryMonth: '12', expiryYear: '2030' } }, methodCode: 'CC', brand: 'VISA' },
  paymentType: 'DB',
  amountMinor: 9200n,
  currency: 'EUR',
};

/** A browser challenge of the payment's own amount. */
const BROWSER_CHALLENGE = { channel: 'browser', purchase: { amountMinor: 9200n, currency: 'EUR', source: 'amount' } } as const;

describe('what the risk decision makes of the entity\'s authentication', () => {
  const cases: { name: string; risk: Parameters<typeof authenticationAfterRisk>[1]; first: PaymentAuthentication; expected: PaymentAuthentication }[] = [
    { name: 'accept: the authentication stands', risk: {}, first: { kind: 'none' }, expected: { kind: 'none' } },
    { name: 'reject: the rejection replaces a success', risk: { refusal: REJECTED }, first: { kind: 'proceed', data: DATA, exemption: {} }, expected: REJECTED },
    { name: 'reject: the rejection replaces a challenge', risk: { refusal: REJECTED }, first: { kind: 'challenge', required: false, ids: IDS, exemption: {}, ...BROWSER_CHALLENGE }, expected: REJECTED },
    { name: 'step-up after a successful authentication: it stands', risk: { threeDSecureRequirement: ALWAYS }, first: { kind: 'proceed', data: DATA, exemption: {} }, expected: { kind: 'proceed', data: DATA, exemption: {} } },
    { name: 'step-up after a refusal: it stands', risk: { threeDSecureRequirement: ALWAYS }, first: { kind: 'refuse', code: '000.400.109' }, expected: { kind: 'refuse', code: '000.400.109' } },
    { name: 'step-up of a challenge: required', risk: { threeDSecureRequirement: ALWAYS }, first: { kind: 'challenge', required: false, ids: IDS, exemption: {}, ...BROWSER_CHALLENGE }, expected: { kind: 'challenge', required: true, ids: IDS, exemption: {}, ...BROWSER_CHALLENGE } },
    { name: 'step-up where none ran: asked again as always (no server on the live system)', risk: { threeDSecureRequirement: ALWAYS }, first: { kind: 'none' }, expected: { kind: 'refuse', code: '000.400.104' } },
    { name: 'step-up after going on without one (not enrolled): asked again', risk: { threeDSecureRequirement: ALWAYS }, first: { kind: 'proceed', exemption: {} }, expected: { kind: 'refuse', code: '000.400.104' } },
  ];
  for (const c of cases) {
    it(c.name, async () => assert.deepEqual(await authenticationAfterRisk(deps, c.risk, c.first, input), c.expected));
  }
});
