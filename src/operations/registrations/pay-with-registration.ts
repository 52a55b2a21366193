import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import type { NormalizedOutcome } from '../../connectors/connector.js';
import type { Queryable } from '../../storage/port.js';
import { recordInitialSchemeReference, type StoredRegistration } from '../../storage/repositories/registrations.js';
import { processInitialPayment } from '../payments/create-payment.js';
import type { PaymentView } from '../payments/payment-response.js';
import { paymentMethodOfRegistration } from './account-data.js';
import type { RegistrationDeps } from './deps.js';
import { loadRegistrationToPay, refuseUnusable } from './load-registration.js';
import { accountDisplay, recordContext } from './registration-record.js';
import { planStandingInstruction } from './standing-instruction-plan.js';

export interface RegistrationPaymentInput {
  readonly entityId: string;
  readonly registrationId: string;
  readonly request: PaymentRequest;
  readonly echo: Readonly<Record<string, unknown>>;
  /** The claim of the request's Idempotency-Key, stored on the payment. */
  readonly idempotencyClaimId?: string | undefined;
  /** Where a shopper sent to a 3-D Secure challenge comes back, and the pages' language. */
  readonly gatewayBaseUrl?: string | undefined;
  readonly locale?: string | undefined;
  /** A checkout's stored card (the widget): the attempt's id and its checkout. */
  readonly transactionId?: string | undefined;
  readonly checkoutId?: string | undefined;
}

/**
 * overrideHolder=true lets the request's card.holder stand in for an empty stored holder, for
 * this payment only; a stored holder always wins, and nothing is written back.
 */
export function holderForPayment(registration: Pick<StoredRegistration, 'account'>, request: PaymentRequest): string | undefined {
  const stored = registration.account['holder'];
  if (stored) return stored;
  return request.overrideHolder === true ? request.card?.holder : undefined;
}

/** The echo with what this payment used: the stored account's summary, not the request's holder. */
function echoOfRegistrationPayment(echo: Readonly<Record<string, unknown>>, registration: StoredRegistration, holder: string | undefined): Record<string, unknown> {
  const { card: _card, ...rest } = echo;
  if (registration.method === 'card' || registration.method === 'tokenAccount') return rest;
  const display = accountDisplay(registration.method, registration.account);
  return { ...rest, [registration.method]: registration.method === 'bankAccount' && holder ? { ...display, holder } : display };
}

/**
 * An INITIAL payment's success records its scheme reference on the registration, in the
 * outcome's transaction. Only such a payment gets this: any onOutcome makes createPayment write
 * the outcome in a transaction of its own instead of the settle it shares with concurrent
 * payments (group commit), which every MIT (a schedule's run) would pay for nothing.
 */
function rememberInitialCit(deps: RegistrationDeps, registrationId: string, startsSeries: boolean) {
  if (!startsSeries) return undefined;
  return async (tx: Queryable, outcome: NormalizedOutcome, transactionId: string): Promise<string> => {
    if (outcome.kind === 'success' && outcome.schemeTransactionId) {
      await recordInitialSchemeReference(tx, registrationId, outcome.schemeTransactionId, transactionId, deps.clock.now());
    }
    return registrationId;
  };
}

/**
 * POST /v1/registrations/{id}/payments: PA, DB or CD with the stored account. The number is
 * opened from the vault for the connector call only; a CVV in the request serves this payment
 * and is then gone. A MIT without initialTransactionId gets the scheme reference of the
 * registration's initial CIT (or recurring migration); an INITIAL payment's success records it.
 */
export async function payWithRegistration(deps: RegistrationDeps, input: RegistrationPaymentInput): Promise<PaymentView> {
  const registration = await loadRegistrationToPay(deps.storage, input.entityId, input.registrationId);
  refuseUnusable(registration);
  const secret = registration.sealed ? await deps.vault.open(recordContext(registration.id), registration.sealed) : {};
  const holder = holderForPayment(registration, input.request);
  const method = paymentMethodOfRegistration(registration, secret, { cvv: input.request.card?.cvv, holder });
  const standingInstruction = planStandingInstruction(input.request, method, { initialSchemeReference: registration.initialSchemeReference });
  return processInitialPayment(deps, {
    entityId: input.entityId,
    request: input.request,
    idempotencyClaimId: input.idempotencyClaimId,
    gatewayBaseUrl: input.gatewayBaseUrl,
    locale: input.locale,
    transactionId: input.transactionId,
    checkoutId: input.checkoutId,
    echo: echoOfRegistrationPayment(input.echo, registration, holder),
    method,
    standingInstruction,
    registrationId: registration.id,
    onOutcome: rememberInitialCit(deps, registration.id, standingInstruction?.startsSeries ?? false),
  });
}
