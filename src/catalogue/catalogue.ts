import { NameLookup, compileRows, rowsOf, type CompiledRow } from './lookup.js';
import { accountRows } from './rows/accounts.js';
import { airlineRows } from './rows/airline.js';
import { bankRows } from './rows/bank.js';
import { basicRows } from './rows/basic.js';
import { billingRows } from './rows/address.js';
import { cartRows } from './rows/cart.js';
import { checkoutRows } from './rows/checkout.js';
import { customAndRiskRows } from './rows/custom-and-risk.js';
import { customerRows } from './rows/customer.js';
import { giftCardRows } from './rows/gift-card.js';
import { jobRows } from './rows/job.js';
import { merchantRows } from './rows/merchant.js';
import { partyRows } from './rows/parties.js';
import { queryRowsAll } from './rows/query.js';
import { shippingRows } from './rows/shipping.js';
import { standingInstructionRows } from './rows/standing-instruction.js';
import { threeDSecureRows } from './rows/three-d-secure.js';
import { ENDPOINTS, type Endpoint, type ParameterRow } from './types.js';

/**
 * The catalogue in its fixed order: format errors are reported in this order, so it is part of
 * the precedence. Core document first, then the party and order data document.
 */
export const CATALOGUE: readonly ParameterRow[] = Object.freeze([
  ...basicRows,
  ...accountRows,
  ...bankRows,
  ...threeDSecureRows,
  ...customAndRiskRows,
  ...standingInstructionRows,
  ...jobRows,
  ...checkoutRows,
  ...queryRowsAll,
  ...customerRows,
  ...billingRows,
  ...shippingRows,
  ...merchantRows,
  ...partyRows,
  ...cartRows,
  ...airlineRows,
  ...giftCardRows,
]);

const COMPILED: readonly CompiledRow[] = compileRows(CATALOGUE);

export interface EndpointCatalogue {
  readonly endpoint: Endpoint;
  readonly rows: readonly CompiledRow[];
  readonly lookup: NameLookup;
  /**
   * Rows required on every request of the endpoint (R), and rows required as soon as their
   * structure is present (card.number within card.*), in catalogue order.
   */
  readonly required: readonly CompiledRow[];
}

function compileEndpoint(endpoint: Endpoint): EndpointCatalogue {
  const rows = rowsOf(COMPILED, endpoint);
  return Object.freeze({
    endpoint,
    rows,
    lookup: new NameLookup(rows),
    required: rows.filter((entry) => entry.row.use[endpoint] === 'R' || entry.row.requiredWithin !== undefined),
  });
}

const BY_ENDPOINT: ReadonlyMap<Endpoint, EndpointCatalogue> = new Map(ENDPOINTS.map((endpoint) => [endpoint, compileEndpoint(endpoint)]));

/** Every row under its own name, whatever the endpoint: tells "not allowed here" from "unknown". */
const ANY_ENDPOINT = new NameLookup(
  COMPILED.filter((entry, index) => COMPILED.findIndex((other) => other.row.name === entry.row.name) === index),
);

export function endpointCatalogue(endpoint: Endpoint): EndpointCatalogue {
  return BY_ENDPOINT.get(endpoint)!;
}

export function anyEndpointLookup(): NameLookup {
  return ANY_ENDPOINT;
}

export function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'string' && (ENDPOINTS as readonly string[]).includes(value);
}
