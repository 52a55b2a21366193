import type { CheckoutSettings } from '../../config/checkout-settings.js';
import type { PaymentDeps } from '../deps.js';

/** The checkout operations: a payment's deps, the checkout settings and the widget script's hash. */
export interface CheckoutDeps extends PaymentDeps {
  readonly checkouts: CheckoutSettings;
  /** `sha384-…` of the exact bytes GET /v1/paymentWidgets.js serves (integrity=true). */
  readonly widgetIntegrity: () => string;
}
