import type { Endpoint, EndpointUse, Requirement } from './types.js';

/**
 * Which endpoints accept which structures. The groups say why a structure goes where it goes;
 * each row file picks a group, and the documentation shows the resulting table per parameter.
 */

/** Endpoints that start a new transaction and so carry the order: amount, customer, cart … */
export const INITIAL_PAYMENTS: readonly Endpoint[] = ['payment', 'registrationPayment', 'checkout'];

/**
 * Endpoints that may carry account data in clear: server-to-server payments and registrations, and
 * the widget's post from the shopper's browser. Never a checkout creation (the merchant's server
 * must not see card data there) and never a referencing request (it reuses the original account).
 */
export const ACCOUNT_DATA: readonly Endpoint[] = ['payment', 'registration', 'checkoutPayment'];

/** Who pays: customer and billing address travel with payments and registrations. */
export const PARTY_DATA: readonly Endpoint[] = ['payment', 'registration', 'registrationPayment', 'checkout'];

/**
 * What is bought: cart, shipping, airline data. Captures and refunds may carry it too, because
 * level 3 and airline data are often only final when the goods ship.
 */
export const ORDER_DATA: readonly Endpoint[] = ['payment', 'referencing', 'registrationPayment', 'checkout'];

/** Everything that creates or changes a transaction or schedule (not the read-only query/reporting). */
export const WRITE_ENDPOINTS: readonly Endpoint[] = [
  'payment',
  'referencing',
  'registration',
  'registrationPayment',
  'checkout',
  'checkoutPayment',
  'schedule',
];

export function on(requirement: Requirement, endpoints: readonly Endpoint[]): EndpointUse {
  return Object.freeze(Object.fromEntries(endpoints.map((endpoint) => [endpoint, requirement])));
}

export const optional = (endpoints: readonly Endpoint[]): EndpointUse => on('O', endpoints);
export const conditional = (endpoints: readonly Endpoint[]): EndpointUse => on('C', endpoints);
export const required = (endpoints: readonly Endpoint[]): EndpointUse => on('R', endpoints);

/** Later uses win for an endpoint both name. */
export function combine(...uses: readonly EndpointUse[]): EndpointUse {
  return Object.freeze(Object.assign({}, ...uses) as EndpointUse);
}
