import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { openWalletSheet, type WalletSheet } from '../../operations/checkouts/open-wallet-sheet.js';
import { GatewayError } from '../../results/gateway-error.js';
import { noteCheckout } from '../request-log-facts.js';
import { sheetCardOf, sheetToken } from '../widget/wallet-sheet-cards.js';
import { doneTargetOf, renderWalletDone, renderWalletSheet, sheetTexts, walletDonePolicy, walletSheetPolicy, type SheetOutcome } from '../widget/wallet-sheet-page.js';
import { WALLET_SHEET_SCRIPT } from '../widget/wallet-sheet-script.js';
import { sheetWindowOf } from '../widget/wallet-sheet-window.js';
import { checkoutResourcePath } from '../../domain/checkouts/checkout-id.js';
import { shopperResultLocation } from '../../operations/redirects/complete-redirect.js';

/** Public: the shopper's browser opens it from the widget; the checkout id is the credential, as for the widget's other calls. */
const sheetRoute = { config: { auth: 'public' as const, checkoutIdIn: 'params' as const } };
export const WALLET_SHEET_PATH = '/v1/checkouts/:id/wallet-sheet';

type WithId = { Params: { id: string } };
type Fields = Record<string, unknown>;

function fieldsOf(source: unknown): Fields {
  return typeof source === 'object' && source !== null ? (source as Fields) : {};
}

function sendHtml(reply: FastifyReply, policy: string, html: string): FastifyReply {
  return reply
    .header('content-security-policy', policy)
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

async function sheetOf(app: FastifyInstance, request: FastifyRequest<WithId>, fields: Fields): Promise<WalletSheet> {
  noteCheckout(request, request.params.id);
  return openWalletSheet(app.gateway.payments, { checkoutId: request.params.id, wallet: fields['wallet'], shopperResultUrl: fields['shopperResultUrl'], shopperIp: request.ip });
}

/**
 * parameterErrors keep their names and messages only, and nothing else of the answer travels
 * but what the widget reads (rules/outcome.ts): the payment's id, its result and a redirect.
 */
function answerForWidget(body: Record<string, any>): Record<string, unknown> {
  const result = fieldsOf(body['result']);
  const listed = result['parameterErrors'] ?? body['parameterErrors'];
  const errors = Array.isArray(listed) ? listed.map((error: Fields) => ({ name: String(error['name'] ?? ''), message: String(error['message'] ?? '') })) : undefined;
  return {
    ...(typeof body['id'] === 'string' ? { id: body['id'] } : {}),
    result: { code: String(result['code'] ?? ''), description: String(result['description'] ?? ''), ...(errors ? { parameterErrors: errors } : {}) },
    ...(body['redirect'] ? { redirect: body['redirect'] } : {}),
  };
}

/**
 * The wallet's payment goes through the widget's own route, POST /v1/checkouts/{id}/payment,
 * with the wallet's brand and its encrypted token (the API's walletX.paymentToken path): the
 * same checks, log line, risk, limits and answer as any widget payment.
 */
async function payWithWallet(app: FastifyInstance, request: FastifyRequest, sheet: WalletSheet, cardKey: unknown): Promise<SheetOutcome> {
  const card = sheetCardOf(cardKey);
  if (!card) throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'card', value: String(cardKey ?? '').slice(0, 16), message: 'not a card of the sheet' }] });
  const token = sheetToken(sheet.wallet, card, app.gateway.payments.clock.now());
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  for (const name of ['accept-language', 'user-agent']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const response = await app.inject({
    method: 'POST',
    url: `/v1/checkouts/${encodeURIComponent(sheet.checkoutId)}/payment`,
    headers,
    remoteAddress: request.ip,
    payload: new URLSearchParams({ paymentBrand: sheet.brand, [`${sheet.wallet}.paymentToken`]: token, shopperResultUrl: sheet.shopperResultUrl }).toString(),
  });
  let body: Record<string, any> = {};
  try {
    body = fieldsOf(response.json()) as Record<string, any>;
  } catch {
    // An answer that is no JSON: the widget says the payment could not be processed.
  }
  return { outcome: 'answer', status: response.statusCode, body: answerForWidget(body) };
}

/**
 * The simulated wallet sheet of the test system (docs/widget.md, "Wallets on the test system"):
 * GET shows it, POST pays with the chosen test card or cancels, and answers the page that hands
 * the outcome to the widget (in its dialog or popup), or, in the whole window, sends the shopper
 * to the result page. Its script is /v1/widget/wallet-sheet.js.
 */
export function registerWalletSheetRoutes(app: FastifyInstance): void {
  app.get<WithId>(WALLET_SHEET_PATH, sheetRoute, async (request, reply) => {
    const query = fieldsOf(request.query);
    const where = sheetWindowOf(query);
    const sheet = await sheetOf(app, request, query);
    const nonce = randomBytes(16).toString('base64');
    const texts = sheetTexts(query['lang'], request.headers['accept-language']);
    return sendHtml(reply, walletSheetPolicy(nonce, sheet.resultOrigin, where), renderWalletSheet(sheet, texts, nonce, where));
  });

  app.post<WithId>(WALLET_SHEET_PATH, sheetRoute, async (request, reply) => {
    const body = fieldsOf(request.body);
    const where = sheetWindowOf(body);
    const sheet = await sheetOf(app, request, body);
    const outcome: SheetOutcome = body['outcome'] === 'pay' ? await payWithWallet(app, request, sheet, body['card']) : { outcome: 'cancel' };
    // The whole window: back to the shop, whose server asks the gateway for the result (cancelled too).
    if (where.kind === 'page') return reply.code(303).header('location', shopperResultLocation(sheet.shopperResultUrl, sheet.checkoutId, checkoutResourcePath(sheet.checkoutId, 'payment'))).header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').send();
    const nonce = randomBytes(16).toString('base64');
    const texts = sheetTexts(body['lang'], request.headers['accept-language']);
    return sendHtml(reply, walletDonePolicy(nonce, sheet.resultOrigin), renderWalletDone(outcome, texts, nonce, doneTargetOf(where, sheet.resultOrigin)));
  });

  app.get('/v1/widget/wallet-sheet.js', { config: { auth: 'public' as const } }, (_request, reply) =>
    reply
      .header('content-type', 'application/javascript; charset=utf-8')
      // Its URL carries its content hash (wallet-sheet-script.ts).
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('cross-origin-resource-policy', 'same-origin')
      .send(WALLET_SHEET_SCRIPT));
}
