import type { Endpoint } from '../types.js';

/** Where each endpoint of the catalogue lives, for the documentation and the OpenAPI document. */
export interface EndpointRoute {
  readonly method: 'get' | 'post';
  readonly path: string;
  readonly summary: string;
  /** Short column heading of the parameter tables. */
  readonly abbreviation: string;
}

export const ENDPOINT_ROUTES: Readonly<Record<Endpoint, EndpointRoute>> = {
  payment: { method: 'post', path: '/v1/payments', summary: 'Payment: preauthorization (PA), debit (DB) or credit (CD)', abbreviation: 'PAY' },
  referencing: { method: 'post', path: '/v1/payments/{id}', summary: 'Capture (CP), reversal (RV) or refund (RF) of a payment', abbreviation: 'REF' },
  registration: { method: 'post', path: '/v1/registrations', summary: 'Store payment data as a registration', abbreviation: 'REG' },
  registrationPayment: { method: 'post', path: '/v1/registrations/{id}/payments', summary: 'Pay with a registration', abbreviation: 'RGP' },
  checkout: { method: 'post', path: '/v1/checkouts', summary: 'Prepare a checkout for the payment widget', abbreviation: 'CHK' },
  checkoutPayment: { method: 'post', path: '/v1/checkouts/{id}/payment', summary: "The widget's payment post from the shopper's browser", abbreviation: 'WID' },
  query: { method: 'get', path: '/v1/query', summary: 'Query transactions', abbreviation: 'QRY' },
  schedule: { method: 'post', path: '/scheduling/v1/schedules', summary: 'Schedule recurring payments of a registration', abbreviation: 'SCH' },
  reporting: { method: 'get', path: '/reports/v1/reconciliations/aggregations', summary: 'Settlement summary', abbreviation: 'RPT' },
};
