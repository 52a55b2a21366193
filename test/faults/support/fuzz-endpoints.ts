/**
 * The campaign over every endpoint: each request aims at one route of the gateway (payments,
 * referencing, GET payment, registrations, schedules, query, result codes, docs, health, the admin API) with
 * the right credentials most of the time, and puts hostile values where that route reads them:
 * control characters, invalid UTF-8 and lone surrogates percent-encoded, overlong values, card
 * numbers and CVVs in any field, broken percent-encoding and odd shapes of the path itself.
 * Each request lists the secrets it carries, so the run can check no answer gives them back.
 */
import { hugeValue, KNOWN_NAMES, Random } from './fuzz-values.js';

export interface EndpointContext {
  readonly token: string;
  readonly entityId: string;
  readonly adminToken: string;
  readonly paymentIds: string[];
  readonly registrationIds: string[];
  readonly webhookIds: string[];
  /** A receiver on 127.0.0.1 that acknowledges every notification, for the webhooks the run creates. */
  readonly webhookUrl: string;
}

type Auth = 'merchant' | 'admin' | 'public';

interface Route {
  readonly method: string;
  /** {payment}, {registration}, {webhook}, {any}: filled with a known id or a random one. */
  readonly path: string;
  readonly auth: Auth;
  /** Names the route reads (form body on POST, query on GET and DELETE). */
  readonly names: readonly string[];
}

const PAYMENT_NAMES = ['amount', 'currency', 'paymentType', 'paymentBrand', 'descriptor', 'merchantTransactionId', 'merchantInvoiceId', 'card.holder', 'customer.email', 'customer.givenName', 'customer.surname', 'billing.street1', 'billing.city', 'shipping.street1', 'cart.items[0].name', 'customParameters[note]', 'createRegistration', 'testMode'];

export const ROUTES: readonly Route[] = [
  { method: 'POST', path: '/v1/payments', auth: 'merchant', names: PAYMENT_NAMES },
  { method: 'POST', path: '/v1/payments/{payment}', auth: 'merchant', names: ['amount', 'currency', 'paymentType', 'merchantTransactionId', 'descriptor'] },
  { method: 'GET', path: '/v1/payments/{payment}', auth: 'merchant', names: [] },
  { method: 'POST', path: '/v1/registrations', auth: 'merchant', names: ['paymentBrand', 'card.holder', 'customer.email', 'merchantTransactionId', 'customParameters[note]'] },
  { method: 'GET', path: '/v1/registrations/{registration}', auth: 'merchant', names: [] },
  { method: 'DELETE', path: '/v1/registrations/{registration}', auth: 'merchant', names: ['merchantTransactionId'] },
  { method: 'POST', path: '/v1/registrations/{registration}/payments', auth: 'merchant', names: ['amount', 'currency', 'paymentType', 'merchantTransactionId', 'descriptor', 'standingInstruction.mode'] },
  { method: 'GET', path: '/v1/query', auth: 'merchant', names: ['merchantTransactionId', 'date.from', 'date.to', 'limit', 'paymentTypes', 'paymentMethods'] },
  { method: 'GET', path: '/v1/query/{payment}', auth: 'merchant', names: [] },
  { method: 'POST', path: '/scheduling/v1/schedules', auth: 'merchant', names: ['registrationId', 'amount', 'currency', 'paymentType', 'job.expression', 'job.dayOfMonth', 'job.dayOfWeek', 'job.timeZone', 'job.startDate', 'job.name', 'merchantTransactionId'] },
  { method: 'GET', path: '/scheduling/v1/schedules', auth: 'merchant', names: ['registrationId'] },
  { method: 'GET', path: '/scheduling/v1/schedules/{any}', auth: 'merchant', names: [] },
  { method: 'POST', path: '/scheduling/v1/schedules/{any}/reschedule', auth: 'merchant', names: ['job.expression', 'job.hour', 'amount', 'registrationId'] },
  { method: 'POST', path: '/scheduling/v1/schedules/{any}/deschedule', auth: 'merchant', names: ['testMode'] },
  { method: 'POST', path: '/scheduling/v1/schedules/{any}/advance', auth: 'merchant', names: ['to'] },
  { method: 'GET', path: '/v1/resultcodes', auth: 'public', names: ['code'] },
  { method: 'GET', path: '/openapi.json', auth: 'public', names: [] },
  { method: 'GET', path: '/docs', auth: 'public', names: [] },
  { method: 'GET', path: '/health', auth: 'public', names: [] },
  // Not /health/ready: its 503 (not ready, draining) is an answer the campaign's "no 5xx" would count.
  { method: 'GET', path: '/health/live', auth: 'public', names: [] },
  { method: 'GET', path: '/admin/entities', auth: 'admin', names: ['limit'] },
  { method: 'POST', path: '/admin/entities', auth: 'admin', names: ['name', 'merchant'] },
  { method: 'POST', path: '/admin/tokens', auth: 'admin', names: ['entity'] },
  { method: 'DELETE', path: '/admin/tokens/{any}', auth: 'admin', names: [] },
  { method: 'POST', path: '/admin/webhooks', auth: 'admin', names: ['entity', 'url'] },
  { method: 'GET', path: '/admin/webhooks', auth: 'admin', names: ['entity'] },
  { method: 'GET', path: '/admin/webhooks/{webhook}', auth: 'admin', names: [] },
  { method: 'POST', path: '/admin/webhooks/{webhook}/activate', auth: 'admin', names: [] },
  { method: 'POST', path: '/admin/webhooks/{webhook}/deactivate', auth: 'admin', names: [] },
  { method: 'POST', path: '/admin/webhooks/{webhook}/test', auth: 'admin', names: [] },
  { method: 'GET', path: '/admin/webhooks/{webhook}/attempts', auth: 'admin', names: ['limit'] },
  { method: 'DELETE', path: '/admin/webhooks/{webhook}', auth: 'admin', names: [] },
  { method: 'POST', path: '/admin/webhooks/deliveries/{any}/resend', auth: 'admin', names: [] },
];

/** Card numbers as a shopper or a careless integration might type them (all Luhn-valid). */
export const PANS = ['4200000000000000', '5454545454545454', '4111111111111111', '378282246310005'];
const PAN_SHAPES = (pan: string) => [pan, pan.replace(/(\d{4})(?=\d)/g, '$1 '), pan.replace(/(\d{4})(?=\d)/g, '$1-'), `${pan.slice(0, 8)}  ${pan.slice(8)}`];
/** CVVs sent as card.cvv: values no other part of a request or answer holds, so an echo is plain. */
export const CVV_MARKERS = ['7319', '8642', '9051', '6283'];

const CONTROL = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).concat('\u007f');
/** Percent-encoded bytes that are not UTF-8, or encode a surrogate or an overlong form. */
const BAD_UTF8 = ['%ED%A0%80', '%ED%BF%BF', '%C3%28', '%FF', '%FE%FF', '%C0%80', '%E0%80%AF', '%F8%88%80%80%80', '%80', '%C2', '%F4%90%80%80'];
const BAD_PERCENT = ['%', '%z', '%zz', '%0', '%%', '%G1', '%u0041', '%25%'];

const pctControl = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`;

/** A hostile value, already on the wire (percent-encoded or deliberately not). */
export function hostileWireValue(random: Random, secrets: string[]): string {
  const roll = random.int(9);
  switch (roll) {
    case 0: return `ab${Array.from({ length: 1 + random.int(4) }, () => pctControl(random.pick(CONTROL))).join('')}cd`;
    case 1: return `x${random.pick(BAD_UTF8)}y`;
    case 2: return `${random.pick(BAD_PERCENT)}${random.string(random.int(5), 'abc12')}`;
    case 3: return encodeURIComponent(hugeValue(random));
    case 4: {
      const pan = random.pick(PANS);
      secrets.push(pan);
      const shape = random.pick(PAN_SHAPES(pan));
      const text = random.pick([shape, `card ${shape}`, `${shape} exp 05/34`, `note:${shape}`]);
      return encodeURIComponent(text);
    }
    case 5: return encodeURIComponent(`\uFEFF${random.pick(['\u202e', 'é', '日本', ''])}`) + '%00';
    case 6: return '%0D%0ASet-Cookie:%20x=1';
    case 7: return encodeURIComponent(random.pick(['<script>alert(1)</script>', "' OR 1=1 --", '${jndi:ldap://127.0.0.1/x}', '../../etc/passwd', '{{7*7}}', 'null', 'undefined', 'NaN', '-1', '1e309']));
    default: return encodeURIComponent(random.string(1 + random.int(20), 'abcXYZ 0123456789'));
  }
}

function fillIds(random: Random, path: string, context: EndpointContext): string {
  const known = (ids: readonly string[]) => (ids.length > 0 && random.chance(0.8) ? random.pick(ids) : random.string(32, '0123456789abcdef'));
  return path
    .replace('{payment}', known(context.paymentIds))
    .replace('{registration}', known(context.registrationIds))
    .replace('{webhook}', known(context.webhookIds))
    .replace('{any}', random.chance(0.5) ? random.string(32, '0123456789abcdef') : random.pick(['x', '%zz', '%00', '..', 'a'.repeat(300), '%ED%A0%80', '4200000000000000']));
}

/** Odd shapes of a path that must be answered (not crash): `//`, dot segments, bad escapes, length. */
function mangledPath(random: Random, path: string): string {
  switch (random.int(8)) {
    case 0: return path.replace(/\//g, '//');
    case 1: return `/v1/./..${path}`;
    case 2: return `${path}/%2e%2e/%2e`;
    case 3: return `${path}${random.pick(BAD_PERCENT)}`;
    case 4: return `${path}/${random.pick(BAD_UTF8)}`;
    case 5: return `${path}/${'a'.repeat(2_000 + random.int(8_000))}`;
    case 6: return `${path}${pctControl(random.pick(CONTROL))}`;
    default: return `${path};${random.string(5, 'abc=')}`;
  }
}

export interface EndpointRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: string[];
  readonly body: string;
  readonly secrets: string[];
  readonly route: string;
}

const ODD_HEADERS = [
  'Content-Type: text/plain', 'Content-Type: application/json', 'Content-Type: multipart/form-data; boundary=zz', 'Content-Type: application/x-www-form-urlencoded; charset=ISO-8859-1',
  'Content-Type: application/x-www-form-urlencoded; charset=utf-16', 'Accept: application/xml', 'Accept-Charset: latin1', 'Content-Encoding: gzip',
  'X-HTTP-Method-Override: DELETE', 'Origin: http://127.0.0.1:1', 'Cookie: a=b', 'Range: bytes=0-1', 'If-None-Match: *', 'Authorization: Bearer', 'authorization: BEARER x',
];

/** One request to one route, with hostile values in its parameters and maybe its path and headers. */
export function endpointRequest(random: Random, context: EndpointContext): EndpointRequest {
  const route = random.pick(ROUTES);
  const secrets: string[] = [];
  const pairs: string[] = [];
  if (route.auth === 'merchant' && random.chance(0.9)) pairs.push(`entityId=${context.entityId}`);
  if (route.path === '/admin/tokens' || route.path === '/admin/webhooks') pairs.push(`entity=${context.entityId}`);
  // These webhooks stay pending (their receiver answers 410): every active webhook is notified of
  // every payment, and a few hundred of them would turn the run into a delivery benchmark.
  if (route.path === '/admin/webhooks' && route.method === 'POST') pairs.push(`url=${random.chance(0.7) ? encodeURIComponent(context.webhookUrl.replace(/\/hooks$/, '/gone')) : hostileWireValue(random, secrets)}`);
  for (const name of route.names) {
    if (random.chance(0.5)) pairs.push(`${encodeURIComponent(name)}=${hostileWireValue(random, secrets)}`);
  }
  // Card data where it belongs, sometimes: the CVV is a marker an answer must never hold.
  if (route.method === 'POST' && random.chance(0.4)) {
    const cvv = random.pick(CVV_MARKERS);
    secrets.push(cvv);
    const pan = random.pick(PANS);
    secrets.push(pan);
    pairs.push(`card.number=${encodeURIComponent(random.pick(PAN_SHAPES(pan)))}`, `card.cvv=${cvv}`, 'card.expiryMonth=05', 'card.expiryYear=2034', 'card.holder=Jane%20Jones');
  }
  // Card numbers and hostile values in names the route does not read, and in names themselves.
  if (random.chance(0.3)) pairs.push(`${encodeURIComponent(random.pick(KNOWN_NAMES))}=${hostileWireValue(random, secrets)}`);
  if (random.chance(0.1)) pairs.push(`${hostileWireValue(random, secrets)}=1`);
  const form = pairs.join('&');
  const inBody = route.method === 'POST';
  let path = fillIds(random, route.path, context);
  if (random.chance(0.15)) path = mangledPath(random, path);
  if (!inBody && form) path += `?${form}`;
  const headers: string[] = [];
  const auth = random.chance(0.9) ? route.auth : random.pick<Auth>(['merchant', 'admin', 'public']);
  if (auth === 'merchant') headers.push(`Authorization: Bearer ${context.token}`);
  if (auth === 'admin') headers.push(`Authorization: Bearer ${context.adminToken}`);
  if (inBody) headers.push('Content-Type: application/x-www-form-urlencoded');
  if (random.chance(0.15)) headers.push(random.pick(ODD_HEADERS));
  const method = random.chance(0.05) ? random.pick(['PUT', 'PATCH', 'OPTIONS', 'TRACE', 'HEAD', 'MKCOL', 'LINK']) : route.method;
  return { method, path, headers, body: inBody ? form : '', secrets, route: `${route.method} ${route.path}` };
}
