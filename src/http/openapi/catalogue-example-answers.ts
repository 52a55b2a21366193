import { enveloped, EXAMPLE_ENTITY_ID as ENTITY, refused, type Json } from './operation-spec.js';

/**
 * Example answers of the catalogue's operations, as the gateway gives them to the example requests
 * of catalogue-examples.ts (test/integration/openapi-coverage.test.ts sends them): success where
 * the request needs nothing stored before it, else the answer to an id that is not there.
 */

type Answers = Readonly<Record<number, { readonly description?: string; readonly example?: Json }>>;

const PAYMENT_ID = '8ac7a4a18f2d4c6e9b0a1c3e5f7d9b2a';
const CARD = { bin: '401288', last4Digits: '1881', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' };
const SUCCESS = '000.100.110';

const notFound = (description: string, code: string): Answers => ({ 404: { description, example: refused(code, undefined, ENTITY) } });

export const CATALOGUE_EXAMPLE_ANSWERS = {
  payment: {
    200: {
      example: enveloped(SUCCESS, {
        id: PAYMENT_ID,
        paymentType: 'DB',
        paymentBrand: 'VISA',
        amount: '92.00',
        currency: 'EUR',
        descriptor: '7985.9520.8397 Shop',
        resultDetails: { ConnectorTxID1: 'SIM-401a1da3339ef8b4be61e36e71f30ec2', AcquirerResponse: '00', ExtendedDescription: 'Approved' },
        card: { ...CARD, type: 'CREDIT' },
        risk: { score: '0' },
        shortId: '7985.9520.8397',
        brandResult: 'VISA',
      }),
    },
  },
  registration: { 200: { example: enveloped(SUCCESS, { id: '8a82944a4cc25ebf014cc2c782423202', paymentBrand: 'VISA', card: CARD, brandResult: 'VISA' }) } },
  checkout: { 200: { example: enveloped('000.200.100', { id: '1AE8836716F5F4283C363D482E281A36.gw01' }) } },
  query: notFound('No transaction of the entity matches', '700.400.580'),
  reporting: { 200: { example: enveloped('000.000.100', { aggregations: [] }) } },
  resultCodes: { 200: { example: enveloped('000.000.100', { resultCodes: [{ code: '000.000.000', description: 'Transaction succeeded' }, { code: '000.000.100', description: 'successful request' }] }, undefined) } },
  noPayment: notFound('No payment of the entity has the id', '700.400.580'),
  noRegistration: notFound('No registration of the entity has the id', '100.150.200'),
  noSchedule: notFound('No schedule of the entity has the id', '700.400.580'),
  noAggregation: notFound('No aggregation of the entity has the id', '700.400.580'),
  noCheckout: {
    400: {
      description: 'Invalid parameters, or no checkout with this id (or it expired)',
      example: refused('200.300.404', { name: 'id', value: '9c3e1b7a5d2f4e6c8a0b1d3f5e7c9a2b', message: 'no checkout with this id, or it expired' }),
    },
  },
} satisfies Record<string, Answers>;
