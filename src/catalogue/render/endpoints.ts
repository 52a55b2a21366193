import { ENDPOINTS, type Endpoint, type ParameterRow } from '../types.js';

/** Where each endpoint of the catalogue lives, for the documentation and the OpenAPI document. */
export interface EndpointRoute {
  readonly method: 'get' | 'post';
  readonly path: string;
  readonly summary: string;
  /** Short column heading of the parameter tables. */
  readonly abbreviation: string;
  /**
   * THE SWITCH: true once the gateway answers this route. The catalogue keeps rows for endpoints
   * still to come; docs/parameters.md, docs/openapi.json and /docs show only served ones, so no
   * documented path answers 404. Whoever implements a route sets this and runs `npm run docs`
   * (test/integration/documented-paths.test.ts checks every documented path answers).
   */
  readonly served: boolean;
}

export const ENDPOINT_ROUTES: Readonly<Record<Endpoint, EndpointRoute>> = {
  payment: { served: true, method: 'post', path: '/v1/payments', summary: 'Payment: preauthorization (PA), debit (DB) or credit (CD)', abbreviation: 'PAY' },
  referencing: { served: true, method: 'post', path: '/v1/payments/{id}', summary: 'Capture (CP), reversal (RV) or refund (RF) of a payment', abbreviation: 'REF' },
  registration: { served: true, method: 'post', path: '/v1/registrations', summary: 'Store payment data as a registration', abbreviation: 'REG' },
  registrationPayment: { served: true, method: 'post', path: '/v1/registrations/{id}/payments', summary: 'Pay with a registration', abbreviation: 'RGP' },
  checkout: { served: true, method: 'post', path: '/v1/checkouts', summary: 'Prepare a checkout for the payment widget', abbreviation: 'CHK' },
  checkoutPayment: { served: true, method: 'post', path: '/v1/checkouts/{id}/payment', summary: "The widget's payment post from the shopper's browser", abbreviation: 'WID' },
  query: { served: true, method: 'get', path: '/v1/query', summary: 'Query transactions', abbreviation: 'QRY' },
  schedule: { served: true, method: 'post', path: '/scheduling/v1/schedules', summary: 'Schedule recurring payments of a registration', abbreviation: 'SCH' },
  reporting: { served: true, method: 'get', path: '/reports/v1/reconciliations/aggregations', summary: 'Settlement summary', abbreviation: 'RPT' },
};

/** The endpoints the documentation shows: those the gateway serves today. */
export const DOCUMENTED_ENDPOINTS: readonly Endpoint[] = ENDPOINTS.filter((endpoint) => ENDPOINT_ROUTES[endpoint].served);

/** A row worth documenting: some served endpoint accepts it. */
export const isDocumented = (row: ParameterRow): boolean => DOCUMENTED_ENDPOINTS.some((endpoint) => row.use[endpoint] !== undefined);
