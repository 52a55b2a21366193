import { endpointCatalogue } from '../../catalogue/index.js';
import type { Endpoint } from '../../catalogue/index.js';
import { EXAMPLE_ENTITY_ID, type Json } from './operation-spec.js';
import { CATALOGUE_EXAMPLE_ANSWERS as ANSWERS } from './catalogue-example-answers.js';

/**
 * Example requests of the operations the parameter catalogue describes: each form is made of the
 * named rows' own samples (the values the catalogue's tests prove valid), so an example cannot
 * drift from the rules. Their answers: catalogue-example-answers.ts.
 */

export interface CatalogueExample {
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly form?: Readonly<Record<string, string>>;
  /** By status; an answer without a description keeps the catalogue's. */
  readonly answers: Readonly<Record<number, { readonly description?: string; readonly example?: Json }>>;
}

/** The named parameters of an endpoint with their rows' samples (entityId: the examples' entity). */
export function sampleForm(endpoint: Endpoint, names: readonly string[], overrides: Readonly<Record<string, string>> = {}): Readonly<Record<string, string>> {
  const rows = new Map(endpointCatalogue(endpoint).rows.map(({ row }) => [row.name, row]));
  const form: Record<string, string> = {};
  for (const name of names) {
    const row = rows.get(name);
    if (!row) throw new Error(`the ${endpoint} catalogue has no ${name}`);
    form[name] = overrides[name] ?? (name === 'entityId' ? EXAMPLE_ENTITY_ID : row.validSample);
  }
  return form;
}

const CARD = ['card.number', 'card.holder', 'card.expiryMonth', 'card.expiryYear', 'card.cvv'];
/**
 * A test card the simulator approves without 3-D Secure, rather than the row's sample: the sample
 * (4200000000000000) is one of the card numbers the fault tests send everywhere and then look for
 * in every answer, and this document is an answer.
 */
export const EXAMPLE_CARD_NUMBER = '4012888888881881';
const card = { 'card.number': EXAMPLE_CARD_NUMBER };
export const PAYMENT_EXAMPLE_FORM = sampleForm('payment', ['entityId', 'amount', 'currency', 'paymentType', 'paymentBrand', ...CARD], { paymentType: 'DB', ...card });

/** What an authentication needs besides the card (docs/api.md, "3-D Secure v2"); the card is the simulator's frictionless one. */
export const THREE_D_SECURE_EXAMPLE_FORM = sampleForm(
  'payment',
  ['entityId', 'amount', 'currency', 'paymentBrand', ...CARD, 'shopperResultUrl', 'customer.browser.acceptHeader', 'customer.browser.language', 'customer.browser.screenHeight',
    'customer.browser.screenWidth', 'customer.browser.timezone', 'customer.browser.userAgent', 'customer.browser.javaEnabled', 'billing.street1', 'billing.city', 'billing.postcode', 'billing.country'],
  {
    'card.number': '4200000000000091', shopperResultUrl: 'https://shop.example.com/result', 'customer.browser.acceptHeader': 'text/html', 'customer.browser.language': 'de-DE',
    'customer.browser.screenHeight': '1080', 'customer.browser.screenWidth': '1920', 'customer.browser.timezone': '-60', 'customer.browser.userAgent': 'Mozilla/5.0 (X11; Linux x86_64)',
    'customer.browser.javaEnabled': 'false', 'billing.street1': 'Hauptstrasse 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE',
  },
);

export const PAYMENT_ID = '8ac7a4a18f2d4c6e9b0a1c3e5f7d9b2a';
export const REGISTRATION_ID = '8a82944a4cc25ebf014cc2c782423202';
export const CHECKOUT_ID = '9c3e1b7a5d2f4e6c8a0b1d3f5e7c9a2b';
export const SCHEDULE_ID = '5f2e8c1a9b3d4e7f6a0c2b4d6e8f1a3c';
export const AGGREGATION_ID = '6b1d3f5a7c9e0b2d4f6a8c0e2b4d6f8a';

const entity = { entityId: EXAMPLE_ENTITY_ID };
const byId = (id: string) => ({ path: { id }, query: entity });

export const CATALOGUE_EXAMPLES: Readonly<Record<string, CatalogueExample>> = {
  payment: { form: PAYMENT_EXAMPLE_FORM, answers: ANSWERS.payment },
  referencing: { path: { id: PAYMENT_ID }, form: sampleForm('referencing', ['entityId', 'amount', 'currency', 'paymentType'], { paymentType: 'CP' }), answers: ANSWERS.noPayment },
  getPayment: { ...byId(PAYMENT_ID), answers: ANSWERS.noPayment },
  registration: { form: sampleForm('registration', ['entityId', 'paymentBrand', ...CARD], card), answers: ANSWERS.registration },
  getRegistration: { ...byId(REGISTRATION_ID), answers: ANSWERS.noRegistration },
  deleteRegistration: { ...byId(REGISTRATION_ID), answers: ANSWERS.noRegistration },
  registrationPayment: { path: { id: REGISTRATION_ID }, form: sampleForm('registrationPayment', ['entityId', 'amount', 'currency', 'paymentType'], { paymentType: 'DB' }), answers: ANSWERS.noRegistration },
  checkout: { form: sampleForm('checkout', ['entityId', 'amount', 'currency', 'paymentType'], { paymentType: 'DB' }), answers: ANSWERS.checkout },
  updateCheckout: { path: { id: CHECKOUT_ID }, form: sampleForm('checkout', ['entityId', 'amount', 'currency']), answers: ANSWERS.noCheckout },
  checkoutPayment: { path: { id: CHECKOUT_ID }, form: sampleForm('checkoutPayment', ['paymentBrand', ...CARD], card), answers: ANSWERS.noCheckout },
  getCheckoutPayment: { ...byId(CHECKOUT_ID), answers: ANSWERS.noCheckout },
  checkoutRegistration: { path: { id: CHECKOUT_ID }, form: sampleForm('checkoutPayment', ['paymentBrand', ...CARD], card), answers: ANSWERS.noCheckout },
  getCheckoutRegistration: { ...byId(CHECKOUT_ID), answers: ANSWERS.noCheckout },
  getWidgetSession: { path: { id: CHECKOUT_ID }, answers: ANSWERS.noCheckout },
  query: { query: sampleForm('query', ['entityId', 'merchantTransactionId']), answers: ANSWERS.query },
  queryOne: { ...byId(PAYMENT_ID), answers: ANSWERS.noPayment },
  listResultCodes: { answers: ANSWERS.resultCodes },
  schedule: { form: sampleForm('schedule', ['entityId', 'registrationId', 'amount', 'currency', 'paymentType', 'job.dayOfMonth'], { paymentType: 'DB' }), answers: ANSWERS.noRegistration },
  listSchedules: { query: { ...entity, registrationId: REGISTRATION_ID }, answers: ANSWERS.noRegistration },
  getSchedule: { ...byId(SCHEDULE_ID), answers: ANSWERS.noSchedule },
  reschedule: { path: { id: SCHEDULE_ID }, form: sampleForm('schedule', ['entityId', 'job.dayOfMonth']), answers: ANSWERS.noSchedule },
  deschedule: { path: { id: SCHEDULE_ID }, form: entity, answers: ANSWERS.noSchedule },
  advanceSchedule: { path: { id: SCHEDULE_ID }, form: { ...entity, to: '2026-12-01 10:00:00' }, answers: ANSWERS.noSchedule },
  reporting: { query: sampleForm('reporting', ['entityId', 'date.from', 'date.to']), answers: ANSWERS.reporting },
  settlementDetail: { ...byId(AGGREGATION_ID), answers: ANSWERS.noAggregation },
  settlementDetailPaged: { ...byId(AGGREGATION_ID), answers: ANSWERS.noAggregation },
};
