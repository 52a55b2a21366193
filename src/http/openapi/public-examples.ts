import { enveloped, EXAMPLE_ENTITY_ID as ENTITY, refused } from './operation-spec.js';

export { PAYMENT_EXAMPLE_FORM, THREE_D_SECURE_EXAMPLE_FORM } from './catalogue-examples.js';

/** Example answers of public-operations.ts, as the gateway gives them to its example requests. */

const CARD = { bin: '420000', last4Digits: '0091', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' };

export const PUBLIC_EXAMPLE_ANSWERS = {
  unauthorised: refused('800.900.300'),
  noTransaction: refused('700.400.580', undefined, ENTITY),
  threeDSecure: enveloped('000.400.110', {
    id: '8ac7a4a0b1c2d3e4f5a6b7c8d9e0f1a2',
    paymentBrand: 'VISA',
    amount: '92.00',
    currency: 'EUR',
    card: CARD,
    customer: { browser: { acceptHeader: 'text/html', language: 'de-DE', screenHeight: '1080', screenWidth: '1920', timezone: '-60', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', javaEnabled: 'false' } },
    billing: { street1: 'Hauptstrasse 1', city: 'Berlin', postcode: '10115', country: 'DE' },
    paymentType: 'PA',
    threeDSecure: {
      eci: '05',
      verificationId: '0Vni5KSfy5h+VQzK7urU6XCrpIQ=',
      version: '2.2.0',
      dsTransactionId: '9d7de984-c93b-40c6-a2cc-c88b19a4fba5',
      acsTransactionId: 'adfe61d5-5c32-431f-a11e-a99401de8daa',
      authenticationStatus: 'Y',
      challengeMandatedIndicator: 'N',
    },
  }),
  risk: enveloped('000.100.110', { id: 'c1b9706571539e7b8980132929b62597', paymentBrand: 'VISA', amount: '92.00', currency: 'EUR', paymentType: 'DB', card: { ...CARD, bin: '401288', last4Digits: '1881' }, risk: { score: '0' } }),
  ready: { status: 'ready', checks: { database: 'ok', migrations: 'ok', 'job-worker': 'ok' } },
  notReady: { status: 'not ready', checks: { database: 'ok', migrations: 'ok', 'job-worker': 'no job worker heartbeat' } },
} as const;
