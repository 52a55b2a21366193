import { EXAMPLE_ENTITY_ID, refused, type Answer, type JsonObject, type OperationSpec } from './operation-spec.js';
import { PUBLIC_EXAMPLE_ANSWERS as EXAMPLES, PAYMENT_EXAMPLE_FORM, THREE_D_SECURE_EXAMPLE_FORM } from './public-examples.js';

/**
 * The public operations the parameter catalogue does not list: 3-D Secure and risk on their own,
 * the shopper's pages (redirect returns, the test system's simulated provider and ACS), the
 * widget's scripts, health, metrics and this reference. Examples of the answers: public-examples.ts.
 */

const AUTHENTICATION_ID = '8ac7a4a0b1c2d3e4f5a6b7c8d9e0f1a2';
const REDIRECT_ID = '4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b';

const STATUS: JsonObject = { type: 'object', required: ['status'], properties: { status: { type: 'string' } } };
const READINESS: JsonObject = { type: 'object', required: ['status', 'checks'], properties: { status: { type: 'string' }, checks: { type: 'object', additionalProperties: { type: 'string' } } } };

const MERCHANT_REFUSALS: Readonly<Record<number, Answer>> = {
  400: { description: 'Invalid parameters (parameterErrors names them) or refused' },
  401: { description: 'No or a malformed Authorization header', example: EXAMPLES.unauthorised },
  403: { description: 'Invalid access token, or an entity it may not act for' },
};

const PAYMENT_API: readonly OperationSpec[] = [
  {
    method: 'post', path: '/v1/threeDSecure', operationId: 'threeDSecure', tag: '3-D Secure', access: 'merchant',
    summary: 'Authenticate a card with 3-D Secure, no payment (the payment parameters; paymentType may be left out)',
    description: 'Answers at once (frictionless) or pending with a challenge redirect whose return carries resourcePath=/v1/threeDSecure/{id} (docs/api.md, "3-D Secure"). A later payment passes the result on as an external server\'s (threeDSecure.eci, verificationId).',
    form: THREE_D_SECURE_EXAMPLE_FORM, formSchema: 'PaymentCheckRequest',
    answers: { 200: { description: 'Authenticated (frictionless), or pending with a redirect to the challenge', example: EXAMPLES.threeDSecure }, ...MERCHANT_REFUSALS },
  },
  {
    method: 'get', path: '/v1/threeDSecure/{id}', operationId: 'getThreeDSecure', tag: '3-D Secure', access: 'merchant', summary: 'The result of a standalone authentication',
    pathExample: { id: AUTHENTICATION_ID }, query: { entityId: EXAMPLE_ENTITY_ID },
    answers: { 200: { description: 'The result' }, 404: { description: "No such authentication of this entity (another entity's is not found)", example: EXAMPLES.noTransaction }, ...MERCHANT_REFUSALS },
  },
  {
    method: 'post', path: '/v1/risk', operationId: 'risk', tag: 'Risk', access: 'merchant',
    summary: 'A standalone risk check (the payment parameters; paymentType may be left out): risk.score and the decision, nothing recorded',
    form: PAYMENT_EXAMPLE_FORM, formSchema: 'PaymentCheckRequest',
    answers: { 200: { description: 'Accepted by the rules', example: EXAMPLES.risk }, ...MERCHANT_REFUSALS },
  },
];

const html = (description: string): Answer => ({ description, type: 'html', example: '<!DOCTYPE html>…' });

function shopperPages(): OperationSpec[] {
  const returnPage = (method: 'get' | 'post'): OperationSpec => ({
    method, path: '/v1/redirects/{id}/return', operationId: method === 'get' ? 'redirectReturn' : 'redirectReturnPost', tag: 'Shopper pages', access: 'public',
    summary: `The shopper's return from a provider page or a 3-D Secure challenge (${method.toUpperCase()}): on to shopperResultUrl`,
    description: 'The redirect id is the credential. The first return completes the payment and answers 303 to shopperResultUrl with its resourcePath; a link that expired or was used answers a page saying so.',
    pathExample: { id: REDIRECT_ID },
    answers: { 303: { description: 'On to shopperResultUrl', type: 'none' }, 404: html('No such redirect: a page saying so'), 410: html('The redirect expired or was completed: a page saying so') },
  });
  const simulated = (purpose: 'provider' | 'acs', method: 'get' | 'post'): OperationSpec => ({
    method, path: `/v1/simulator/${purpose}/{id}`, operationId: `simulated${purpose === 'acs' ? 'Acs' : 'Provider'}${method === 'post' ? 'Post' : 'Page'}`, tag: 'Shopper pages', access: 'public',
    summary: `Test system only: the simulated ${purpose === 'acs' ? "3-D Secure ACS's challenge" : "payment provider's"} page (${method === 'get' ? 'shown' : 'answered with outcome='})`,
    pathExample: { id: REDIRECT_ID }, ...(method === 'post' ? { form: { outcome: 'success' }, fields: { outcome: purpose === 'acs' ? 'Y, N, U, R or cancel' : 'success, failure or cancel' } } : {}),
    answers: {
      ...(method === 'get' ? { 200: html('The page') } : { 303: { description: 'Done: on to the return', type: 'none' as const }, 400: html('Not an outcome of the page: the page again') }),
      404: html('No such redirect'), 410: html('The redirect expired or was completed'),
    },
  });
  return [returnPage('get'), returnPage('post'), simulated('provider', 'get'), simulated('provider', 'post'), simulated('acs', 'get'), simulated('acs', 'post')];
}

const EMV_TRANSACTION_IDS = { threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e', acsTransID: 'd7c1ee99-9478-44a6-b1f2-391e29c6b340', dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b' };
const EMV_MESSAGE: JsonObject = { type: 'object', required: ['messageType', 'messageVersion'], properties: { messageType: { type: 'string', enum: ['RRes', 'Erro'] }, messageVersion: { type: 'string' } } };

/**
 * The gateway's own 3DS server's addresses (THREE_DS_SERVER_DS_URL set; docs/three-d-secure.md):
 * called by the ACS and by the shopper's browser, never by a merchant.
 */
const THREE_DS_SERVER: readonly OperationSpec[] = [
  {
    method: 'post', path: '/v1/threeDSecure/results', operationId: 'threeDSecureResults', tag: '3-D Secure', access: 'public',
    summary: "The 3DS server's threeDSServerURL: the ACS's RReq with the result of a challenge (EMV 3-D Secure 2.2/2.3 JSON), answered by the RRes",
    description: 'Called by the ACS, not by merchants. An RReq that is malformed, names no challenge this gateway started, or comes a second time is answered with an Erro (101/102/201/203 from the message layer, 301 foreign transaction, 305 replayed or ended) and changes nothing. Both messages travel in HTTP 200, as EMV 3-D Secure carries them.',
    json: { messageType: 'RReq', messageVersion: '2.2.0', ...EMV_TRANSACTION_IDS, messageCategory: '01', transStatus: 'Y', eci: '05', authenticationValue: 'AJkBBkhgQQAAAE4gSEJydQAAAAA=', authenticationType: '02', interactionCounter: '01' },
    answers: {
      200: {
        description: 'The RRes (resultsStatus 01), or an Erro: this example names no challenge of the gateway, so 301',
        schema: EMV_MESSAGE,
        example: { messageType: 'Erro', messageVersion: '2.2.0', threeDSServerTransID: EMV_TRANSACTION_IDS.threeDSServerTransID, acsTransID: EMV_TRANSACTION_IDS.acsTransID, dsTransID: EMV_TRANSACTION_IDS.dsTransID, errorCode: '301', errorComponent: 'S', errorDescription: 'Transaction ID Not Recognised', errorDetail: 'threeDSServerTransID', errorMessageType: 'RReq' },
      },
      413: { description: 'A body over 64 KiB, refused unread', type: 'none' },
    },
  },
  {
    method: 'get', path: '/v1/threeDSecure/challenge/{id}', operationId: 'threeDSecureChallengeStart', tag: 'Shopper pages', access: 'public',
    summary: "Where a real ACS's challenge starts: the gateway's page that posts the CReq to the ACS the ARes named",
    description: 'The redirect of a payment (or standalone authentication) the gateway\'s own 3DS server connector challenges (THREE_DS_SERVER_DS_URL, docs/three-d-secure.md) leads here, so the merchant\'s page and the widget need to know the gateway\'s origin only. In a top window the page posts creq and threeDSSessionData to the ACS at once (a button without script); in the widget\'s overlay it holds the ACS in a frame of its own and passes the end of the challenge on to the widget.',
    pathExample: { id: '4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b' },
    answers: { 200: html('The page that posts the CReq to the ACS'), 404: html('No such challenge: a page saying so'), 410: html('The challenge expired or was completed: a page saying so') },
  },
  {
    method: 'post', path: '/v1/threeDSecure/notification', operationId: 'threeDSecureNotification', tag: 'Shopper pages', access: 'public',
    summary: "The 3DS server's notificationURL: the shopper's browser posts the ACS's final CRes, and goes on to shopperResultUrl",
    description: 'threeDSSessionData names the redirect (as the CReq sent it). The payment ends as the RReq the ACS sent before decided; without one it declines (100.390.112). A top window gets a page that goes on to shopperResultUrl by itself; the widget\'s overlay gets the page that hands the result page to the widget.',
    form: { cres: 'eyJtZXNzYWdlVHlwZSI6IkNSZXMifQ', threeDSSessionData: 'NGU1ZDZjN2I4YTlmMGUxZDJjM2I0YTVmNmU3ZDhjOWI' },
    fields: { cres: 'The final CRes, base64url JSON', threeDSSessionData: 'What the CReq form sent: base64url of the redirect id' },
    answers: { 200: html('On to shopperResultUrl (a page that goes on by itself, or the overlay\'s end)'), 404: html('No such challenge, or a CRes that is malformed or of another transaction: a page saying so'), 410: html('The challenge expired or was completed: a page saying so') },
  },
  {
    method: 'get', path: '/v1/threeDSecure/method/{id}', operationId: 'threeDSecureMethodPage', tag: 'Shopper pages', access: 'public',
    summary: "The gateway's 3DS Method page: the card's ACS looks at the shopper's browser before the AReq",
    description: 'A payment whose card\'s range (the directory\'s PRes) names a threeDSMethodURL answers pending with a redirect here instead of sending its AReq (docs/three-d-secure.md, "The 3DS Method"). The page posts threeDSMethodData (base64url JSON of threeDSServerTransID and threeDSMethodNotificationURL) to the ACS in a hidden iframe, and goes on (POST /v1/threeDSecure/method/{id}/continue) once the ACS has notified the gateway, or after THREE_DS_SERVER_METHOD_TIMEOUT_MS. Its one script is /v1/threeDSecure/method.js (no inline script); only a widget payment\'s result page may frame it (the overlay). A method already sent on to a challenge leads there (303).',
    pathExample: { id: '4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b' },
    answers: { 200: html('The method page'), 303: { description: 'The method went on to a challenge: to /v1/threeDSecure/challenge/{id}', type: 'none' }, 404: html('No such method: a page saying so'), 410: html('The payment expired or went on: a page saying so') },
  },
  {
    method: 'get', path: '/v1/threeDSecure/method.js', operationId: 'threeDSecureMethodScript', tag: 'Shopper pages', access: 'public',
    summary: "The method page's script: posts the hidden form, goes on once notified or after the timeout",
    answers: { 200: { description: 'The script', type: 'javascript', example: '/* the method page\'s script */' } },
  },
  {
    method: 'post', path: '/v1/threeDSecure/method/notification', operationId: 'threeDSecureMethodNotification', tag: 'Shopper pages', access: 'public',
    summary: "The 3DS Method's threeDSMethodNotificationURL: the ACS's page in the hidden iframe posts threeDSMethodData back",
    description: 'Marks the open method of the threeDSServerTransID notified, once: the AReq then says threeDSCompInd Y. A second notification, one after the page went on (the AReq sent with N), one of no method of this gateway and one that is no threeDSMethodData are refused and change nothing.',
    form: { threeDSMethodData: 'eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjhhODgwZGMwLWQyZDItNDA2Ny1iY2IxLWIwOGQxNjkwYjI2ZSJ9' },
    fields: { threeDSMethodData: 'base64url JSON with threeDSServerTransID' },
    answers: { 200: html('Received'), 400: html('No threeDSMethodData, or not one'), 404: html('No method of this gateway has this threeDSServerTransID'), 409: html('Notified already, or the payment went on without it, or ended') },
  },
  {
    method: 'post', path: '/v1/threeDSecure/method/{id}/continue', operationId: 'threeDSecureMethodContinue', tag: 'Shopper pages', access: 'public',
    summary: 'The method page goes on: the AReq goes (threeDSCompInd Y where the ACS notified, else N), once',
    description: 'Posted by the method page\'s script (or its button). The first continue takes the method and sends the AReq in its transaction; a frictionless or refused answer ends the payment (the acquirer is asked with the sealed card where it goes on) and the shopper goes on to shopperResultUrl (a page that goes on by itself, or the overlay\'s end); a challenge leads to /v1/threeDSecure/challenge/{id}. A second continue sends nothing.',
    pathExample: { id: '4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b' },
    answers: { 200: html('On to shopperResultUrl'), 303: { description: 'The ARes challenges: to /v1/threeDSecure/challenge/{id}', type: 'none' }, 404: html('No such method: a page saying so'), 410: html('The method went on already, or the payment expired: a page saying so') },
  },
];

const script = (description: string): Answer => ({ description, type: 'javascript', example: '/* minified script */' });

const WIDGET_TEXTS: JsonObject = { type: 'object', required: ['locale', 'labels'], properties: { locale: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } };

const WIDGET_ASSETS: readonly OperationSpec[] = [
  {
    method: 'get', path: '/v1/paymentWidgets.js', operationId: 'paymentWidgetsScript', tag: 'Payment widget', access: 'public',
    summary: "The widget's script for the merchant's page (docs/widget.md); the same bytes for every checkout",
    query: { checkoutId: '9c3e1b7a5d2f4e6c8a0b1d3f5e7c9a2b' }, optional: ['checkoutId'],
    answers: { 200: script('The script (cacheable for a year, CORS open: loaded with integrity=)'), 304: { description: 'Unchanged (If-None-Match)', type: 'none' } },
  },
  {
    method: 'get', path: '/v1/widget/texts/{locale}', operationId: 'widgetTexts', tag: 'Payment widget', access: 'public',
    summary: "One language's texts for the widget's script, which carries English only (docs/widget.md)",
    description: 'The script fetches them beside the checkout before it draws a form, for any of the 25 languages but English. The answer is the same for every checkout; with the version the script names in `v` it is cacheable for a year (else for an hour).',
    pathExample: { locale: 'de' }, query: { v: '0123456789abcdef0123' }, optional: ['v'],
    fields: { locale: "One of the widget's 25 language codes (en, de, fr, es, it, nl, dk, fi, se, tr, ja, sl, pt, pl, cz, hu, bg, ro, ru, cn, gr, no, sk, ar, ko)", v: 'The version of the texts the script was built with; any value serves the current texts' },
    answers: {
      200: { description: 'The language and its texts, label name → text (CORS open)', schema: WIDGET_TEXTS, example: { locale: 'de', labels: { cardNumber: 'Kartennummer', submit: 'Jetzt bezahlen', declined: 'Die Zahlung wurde abgelehnt. Verwenden Sie eine andere Karte oder Zahlungsart.' } } },
      304: { description: 'Unchanged (If-None-Match)', type: 'none' },
      400: { description: 'A code outside the 25 (200.300.404, parameterErrors names locale)', example: refused('200.300.404', { name: 'locale', value: 'xx', message: 'must be one of en, de, fr, es, it, nl, dk, fi, se, tr, ja, sl, pt, pl, cz, hu, bg, ro, ru, cn, gr, no, sk, ar, ko' }, undefined) },
    },
  },
  {
    method: 'get', path: '/v1/widget/frame', operationId: 'widgetFrame', tag: 'Payment widget', access: 'public', summary: 'The secure card field frame the widget embeds',
    answers: { 200: { ...html('The frame page, under a CSP with a fresh nonce'), example: '<!doctype html>…' } },
  },
  {
    method: 'get', path: '/v1/widget/frame.js', operationId: 'widgetFrameScript', tag: 'Payment widget', access: 'public', summary: "The frame's script",
    query: { v: '1' }, optional: ['v'], fields: { v: 'The version the frame page names; any value serves the current script' },
    answers: { 200: script('The script'), 304: { description: 'Unchanged (If-None-Match)', type: 'none' } },
  },
];

const EXAMPLE_CHECKOUT_ID = '8A8294174B7ECB28014B9699220015CA.uat01-vm-tx01';
const WALLET_SHEET_FIELDS = {
  wallet: 'walletA, walletB or walletC: a wallet the checkout may take',
  shopperResultUrl: "The merchant form's action (the checkout's own shopperResultUrl wins): its origin alone may frame the sheet",
  lang: "The widget's language; the sheet speaks en, de, fr, es, it or nl (else the browser's, else English)",
  window: "Where the widget opened the sheet: frame (its dialog, the default; the result page's origin only), popup (a page of another origin) or page (the whole window, where a popup was blocked)",
  opener: "With window=popup: the http(s) origin of the page that opened the popup, exactly (https://shop.example); the only origin the outcome is posted to",
};
const SHEET_REFUSALS: Readonly<Record<number, Answer>> = {
  400: { description: 'An unknown, expired or paid checkout (200.300.404), a wallet it does not take (600.200.200), one the risk engine hides (100.400.319), a window or opener that is not one (200.300.404)', example: refused('200.300.404', { name: 'id', value: EXAMPLE_CHECKOUT_ID, message: 'no checkout with this id, or it expired' }, undefined) },
  404: { description: 'The live system: no simulated sheet (600.200.200)' },
};

/** The test system's simulated wallet sheet (docs/widget.md, "Wallets on the test system"). */
const WALLET_SHEET: readonly OperationSpec[] = [
  {
    method: 'get', path: '/v1/checkouts/{id}/wallet-sheet', operationId: 'walletSheet', tag: 'Payment widget', access: 'public',
    summary: 'Test system only: the simulated wallet sheet the widget shows for a WALLETA, WALLETB or WALLETC button',
    description: 'A page of the gateway, framed by the widget\'s dialog, or in a popup or the whole window on a page of another origin: the amount, a few simulator test cards (brand and last four digits only), Pay and Cancel. No script; only the result page\'s origin may frame it.',
    pathExample: { id: EXAMPLE_CHECKOUT_ID }, query: { wallet: 'walletA', shopperResultUrl: 'https://shop.example/result', lang: 'en', window: 'popup', opener: 'https://checkout.shop.example' }, optional: ['shopperResultUrl', 'lang', 'window', 'opener'], fields: WALLET_SHEET_FIELDS,
    answers: { 200: html('The sheet'), ...SHEET_REFUSALS },
  },
  {
    method: 'post', path: '/v1/checkouts/{id}/wallet-sheet', operationId: 'walletSheetPost', tag: 'Payment widget', access: 'public',
    summary: "Test system only: the sheet's Pay or Cancel. Pay: the gateway seals the chosen test card into the wallet's test token and pays the checkout through POST /v1/checkouts/{id}/payment (paymentBrand, walletX.paymentToken)",
    description: "Answers the page that hands the payment's answer (its id, result and any redirect; never card data) or the cancel to the widget, by postMessage to the result page's origin only (in the dialog) or to the opener's origin only (in a popup); in the whole window (window=page), 303 to shopperResultUrl with id and resourcePath.",
    pathExample: { id: EXAMPLE_CHECKOUT_ID }, form: { wallet: 'walletA', card: 'visa-0000', outcome: 'pay', shopperResultUrl: 'https://shop.example/result', lang: 'en', window: 'popup', opener: 'https://checkout.shop.example' }, optional: ['card', 'shopperResultUrl', 'lang', 'window', 'opener'],
    fields: { ...WALLET_SHEET_FIELDS, card: 'The chosen card of the sheet (visa-0000, master-5454 approve; visa-0002 declines)', outcome: 'pay or cancel' },
    answers: { 200: html("The sheet's last page, which tells the widget"), 303: { description: 'window=page: on to shopperResultUrl?id=…&resourcePath=…', type: 'none' }, ...SHEET_REFUSALS },
  },
  {
    method: 'get', path: '/v1/widget/wallet-sheet.js', operationId: 'walletSheetScript', tag: 'Payment widget', access: 'public', summary: "The script of the sheet's last page: posts the outcome to the widget",
    query: { v: '1' }, optional: ['v'], fields: { v: 'The version the page names; any value serves the current script' },
    answers: { 200: script('The script') },
  },
];

const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get', path: '/health', operationId: 'health', tag: 'Health and metrics', access: 'public', summary: 'For load balancers: the database answers',
    answers: { 200: { description: 'Up', schema: STATUS, example: { status: 'ok' } }, 503: { description: 'The database does not answer', schema: STATUS, example: { status: 'database unavailable' } } },
  },
  {
    method: 'get', path: '/health/live', operationId: 'healthLive', tag: 'Health and metrics', access: 'public', summary: 'Liveness: the process answers (no I/O; plain HTTP allowed on the live system)',
    answers: { 200: { description: 'Alive', schema: STATUS, example: { status: 'ok' } } },
  },
  {
    method: 'get', path: '/health/ready', operationId: 'healthReady', tag: 'Health and metrics', access: 'public',
    summary: 'Readiness: 200 only when every check passes; 503 naming each check\'s state, and "draining" from the start of a graceful shutdown',
    answers: { 200: { description: 'Ready', schema: READINESS, example: EXAMPLES.ready }, 503: { description: 'Not ready: the checks that failed, or draining', schema: READINESS, example: EXAMPLES.notReady } },
  },
  {
    method: 'get', path: '/metrics', operationId: 'metrics', tag: 'Health and metrics', access: 'admin',
    summary: 'The Prometheus scrape (docs/metrics.md), when METRICS_ENABLED',
    description: 'On the admin listener (ADMIN_PORT) anyone who reaches it may scrape; on the public listener the ADMIN_TOKEN is asked for unless the scraper\'s address is on METRICS_ALLOW_FROM.',
    answers: { 200: { description: 'The metrics, Prometheus text format', type: 'text', example: '# HELP gateway_requests_total …' }, 401: { description: 'Public listener: no Authorization header' }, 403: { description: 'Public listener: not the ADMIN_TOKEN' }, 503: { description: "The node's processes did not answer", type: 'text' } },
  },
  {
    method: 'get', path: '/openapi.json', operationId: 'openApiDocument', tag: 'Reference', access: 'public', summary: 'This document',
    answers: { 200: { description: 'The OpenAPI 3.1 document', schema: { type: 'object' }, example: { openapi: '3.1.0', info: { title: 'Open payment gateway', version: '1' }, paths: {} } } },
  },
  {
    method: 'get', path: '/docs', operationId: 'docsPage', tag: 'Reference', access: 'public', summary: 'This reference, readable (Swagger UI served by the gateway)',
    answers: { 200: { ...html('The page'), example: '<!doctype html>…' } },
  },
  ...PAYMENT_API,
  ...shopperPages(),
  ...THREE_DS_SERVER,
  ...WIDGET_ASSETS,
  ...WALLET_SHEET,
];

export const PUBLIC_OPERATIONS: readonly OperationSpec[] = OPERATIONS;
