import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestBody } from '../../catalogue/types.js';
import type { CheckoutDeps } from '../../operations/checkouts/checkout-deps.js';
import { keptParameters } from '../../operations/checkouts/checkout-parameters.js';
import { checkoutStatus } from '../../operations/checkouts/checkout-status.js';
import { createCheckout } from '../../operations/checkouts/create-checkout.js';
import { payCheckout } from '../../operations/checkouts/pay-checkout.js';
import { registerWithCheckout } from '../../operations/checkouts/register-with-checkout.js';
import { updateCheckout } from '../../operations/checkouts/update-checkout.js';
import { widgetSession } from '../../operations/checkouts/widget-session.js';
import { resultCode } from '../../results/catalogue.js';
import { observeRefusal } from '../../operations/payments/observe-payment.js';
import type { PaymentView } from '../../operations/payments/payment-response.js';
import { refusedRequestOf } from './payments.js';
import { resultOf, type ResultBody } from '../envelope.js';
import { merchantPaymentView } from '../merchant-view.js';
import { sendWithEnvelope } from '../reply.js';
import { noteCheckout, noteTransaction } from '../request-log-facts.js';
import { shopperContext } from '../shopper-context.js';
import { validatedParameters, validatedSource } from '../validate-request.js';
import { loadWidgetScript } from '../widget/script-asset.js';

// checkoutIdIn: each request's log line names the checkout of its path, so a refusal is found by checkout id.
const merchantApi = { config: { auth: 'entity' as const, checkoutIdIn: 'params' as const } };
/** The widget's calls from the shopper's browser: the checkout id is their only credential. */
const widgetApi = { config: { auth: 'public' as const, checkoutIdIn: 'params' as const } };
/** The widget's payment and registration posts carry payment parameters: the live system's testMode rule applies (system-mode.ts). */
const widgetPost = { config: { ...widgetApi.config, refusesTestModeOnLive: true } };

type WithId = { Params: { id: string } };

/**
 * Checkout answers carry the request's own ndc like every other answer: the public interface
 * answers the checkout id there, but its dot is outside the specification's ndc characters
 * (docs/compatibility.md, "Envelope forms"); the checkout id is the answer's id.
 */
function sendCheckoutAnswer(request: FastifyRequest, reply: FastifyReply, checkoutId: string, body: object, result: ResultBody): FastifyReply {
  noteCheckout(request, checkoutId);
  return sendWithEnvelope(request, reply, resultCode(result.code).httpStatus, body, result);
}

/**
 * The widget's calls may come from any merchant page (and its frames): readable cross-origin,
 * never with cookies. The id in the path is the credential, as in OPPWA.
 */
function allowAnyOrigin(reply: FastifyReply): void {
  reply.header('Access-Control-Allow-Origin', '*').header('Vary', 'Origin');
}

/** A stored card's payment carries at most a CVV and a holder of the card; the payment with the registration checks those. */
const STORED_CARD_EXTRAS = ['card.cvv', 'card.holder'];

/** What a browser's script cannot read of itself but its request says, for 3-D Secure v2. */
const BROWSER_HEADERS = [['customer.browser.acceptHeader', 'accept'], ['customer.browser.userAgent', 'user-agent']] as const;
const BROWSER_TEXT_MAX = 2048;

/**
 * The widget's own parameters, checked as the widget's endpoint admits them (no amount, no
 * merchant custom parameters …). With a stored card, card.cvv alone is no incomplete card. When
 * the widget sends the shopper's browser data, the request's own Accept and User-Agent complete it.
 */
function widgetParameters(request: FastifyRequest): Record<string, string> {
  const body = { ...((request.body ?? {}) as RequestBody) };
  if (Object.keys(body).some((name) => name.startsWith('customer.browser.'))) {
    for (const [name, header] of BROWSER_HEADERS) {
      const value = request.headers[header];
      if (body[name] === undefined && typeof value === 'string' && value !== '') body[name] = value.slice(0, BROWSER_TEXT_MAX);
    }
  }
  const checked = body['registrationId'] === undefined ? body : Object.fromEntries(Object.entries(body).filter(([name]) => !STORED_CARD_EXTRAS.includes(name)));
  validatedSource('checkoutPayment', request, checked as RequestBody);
  return keptParameters(body);
}

/**
 * Where the checkout routes are served: the specification's endpoint table writes them without a
 * version prefix (`POST /checkouts`, `/checkouts/{id}/payment|registration`); OPPWA's clients and
 * the compatibility reference use `/v1/checkouts`. Both forms reach the same handlers.
 */
export const CHECKOUT_PATH_PREFIXES = ['/v1/checkouts', '/checkouts'] as const;

/** POST /v1/checkouts, POST /v1/checkouts/{id}, the widget's payment and registration, and their status; also without /v1. */
export function registerCheckoutRoutes(app: FastifyInstance): void {
  // On top of the payment deps, not a copy of them: what is set on those later (a test's vault) shows through.
  const deps: CheckoutDeps = Object.assign(Object.create(app.gateway.payments) as CheckoutDeps, {
    checkouts: app.gateway.config.checkouts,
    widgetIntegrity: () => loadWidgetScript().integrity,
  });
  for (const prefix of CHECKOUT_PATH_PREFIXES) {
    registerMerchantCheckoutRoutes(app, deps, prefix);
    registerWidgetCheckoutRoutes(app, deps, prefix);
  }
}

/** The merchant's server: create, update, and the status of a checkout's payment or registration. */
function registerMerchantCheckoutRoutes(app: FastifyInstance, deps: CheckoutDeps, prefix: string): void {

  app.post(prefix, merchantApi, async (request, reply) => {
    const parameters = validatedParameters('checkout', request);
    const created = await createCheckout(deps, { entityId: request.entityId!, request: parameters, parameters: keptParameters(request.body as RequestBody, request.ignoredParameters) });
    return sendCheckoutAnswer(request, reply, created.id, created.body, created.result);
  });

  app.post<WithId>(`${prefix}/:id`, merchantApi, async (request, reply) => {
    const body = (request.body ?? {}) as RequestBody;
    const integrity = typeof body['integrity'] === 'string' ? body['integrity'] : undefined;
    const updated = await updateCheckout(deps, { entityId: request.entityId!, checkoutId: request.params.id, parameters: keptParameters(body), integrity });
    return sendCheckoutAnswer(request, reply, updated.id, updated.body, updated.result);
  });

  for (const purpose of ['payment', 'registration'] as const) {
    app.get<WithId>(`${prefix}/:id/${purpose}`, merchantApi, async (request, reply) => {
      const view = await merchantPaymentView(request, await checkoutStatus(deps, { entityId: request.entityId!, checkoutId: request.params.id, purpose }));
      if (purpose === 'payment') noteTransaction(request, view.body);
      return sendCheckoutAnswer(request, reply, request.params.id, view.body, view.result);
    });
  }
}

/** The shopper's browser (the widget): its session, the payment and registration posts, their preflight. */
function registerWidgetCheckoutRoutes(app: FastifyInstance, deps: CheckoutDeps, prefix: string): void {
  for (const purpose of ['payment', 'registration'] as const) {
    app.options<WithId>(`${prefix}/:id/${purpose}`, widgetApi, async (_request, reply) => {
      allowAnyOrigin(reply);
      return reply.code(204).header('Access-Control-Allow-Methods', 'POST').header('Access-Control-Allow-Headers', 'Content-Type, Accept-Language').send();
    });
  }

  app.post<WithId>(`${prefix}/:id/payment`, widgetPost, async (request, reply) => {
    allowAnyOrigin(reply);
    let view: PaymentView;
    try {
      const parameters = widgetParameters(request);
      const paid = await payCheckout(deps, { checkoutId: request.params.id, parameters, shopperIp: request.ip, ...shopperContext(request) });
      view = await merchantPaymentView(request, paid, paid.entityId);
    } catch (error) {
      // Refused before the payment had an answer of its own (which the payment counts): the widget's payment is counted once.
      observeRefusal(deps.observe, refusedRequestOf(request), error);
      throw error;
    }
    noteTransaction(request, view.body);
    return sendCheckoutAnswer(request, reply, request.params.id, view.body, view.result);
  });

  app.post<WithId>(`${prefix}/:id/registration`, widgetPost, async (request, reply) => {
    allowAnyOrigin(reply);
    const parameters = widgetParameters(request);
    const view = await registerWithCheckout(deps, { checkoutId: request.params.id, parameters });
    return sendCheckoutAnswer(request, reply, request.params.id, view.body, view.result);
  });

  app.get<WithId>(`${prefix}/:id/widget`, widgetApi, async (request, reply) => {
    allowAnyOrigin(reply);
    reply.header('Cache-Control', 'no-store');
    const session = await widgetSession(deps, request.params.id, request.ip);
    return sendCheckoutAnswer(request, reply, request.params.id, session, resultOf('000.200.103'));
  });
}
