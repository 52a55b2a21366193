/**
 * Builds one random request as raw bytes: a valid payment now and then (so the database path is
 * fuzzed too), random form bodies against the payment endpoints, random methods, paths and
 * headers everywhere, and a few requests with broken HTTP framing.
 */
import { endpointRequest, PANS, type EndpointContext } from './fuzz-endpoints.js';
import { CONTENT_TYPES, hugeValue, METHODS, PATH_TEMPLATES, randomPair, Random } from './fuzz-values.js';

export interface FuzzContext extends EndpointContext {
  readonly token: string;
  readonly entityId: string;
  /** Ids of payments the fuzz created, for captures, refunds and GETs. */
  readonly paymentIds: string[];
}

export interface FuzzRequest {
  readonly kind: string;
  readonly bytes: Buffer;
  readonly isHead: boolean;
  /** False when the HTTP framing itself is broken: then closing without an answer is allowed. */
  readonly wellFramed: boolean;
  /** Card numbers and CVVs the request carries: no answer may hold them. */
  readonly secrets: readonly string[];
}

interface Parts {
  method: string;
  path: string;
  headers: string[];
  body: string;
}

const CARD = 'paymentBrand=VISA&card.number=4200000000000000&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=123';
/** Amounts of the simulator table: approved, declined, insufficient funds, timeout (pending). */
const AMOUNTS = ['92.00', '12.34', '5.05', '5.06', '9.99', '0.01', '99999999.99'];

function authorization(random: Random, context: FuzzContext): string[] {
  const roll = random.next();
  if (roll < 0.55) return [`Authorization: Bearer ${context.token}`];
  if (roll < 0.65) return [];
  if (roll < 0.75) return [`Authorization: Bearer ${random.string(43, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_')}`];
  if (roll < 0.8) return [`Authorization: Bearer ${context.token}`, `Authorization: Bearer ${context.token}`];
  return [`Authorization: ${random.pick(['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `bearer ${context.token}`, `Bearer ${context.token}x`, `Bearer ${'x'.repeat(600)}`, 'Bearer ümlaut-token-1234567', `Bearer  ${context.token}`])}`];
}

function fillPath(random: Random, template: string, context: FuzzContext): string {
  const id = context.paymentIds.length > 0 && random.chance(0.7) ? random.pick(context.paymentIds) : random.string(32, '0123456789abcdef');
  return template
    .replace('{id}', id)
    .replace('{junk}', random.string(random.int(80), 'abcXYZ019-_.~%!$&\'()*+,;=:@'))
    .replace('{entity}', random.chance(0.8) ? context.entityId : random.string(32, '0123456789abcdefgh'));
}

function randomForm(random: Random, context: FuzzContext): string {
  const pairs: string[] = [];
  if (random.chance(0.8)) pairs.push(`entityId=${random.chance(0.9) ? context.entityId : random.string(random.int(40), '0123456789abcdefz')}`);
  const count = random.int(random.chance(0.1) ? 400 : 25);
  for (let i = 0; i < count; i += 1) pairs.push(randomPair(random));
  // Repeated keys: the same parameter sent several times.
  if (random.chance(0.15)) pairs.push(...Array.from({ length: 2 + random.int(40) }, () => pairs[random.int(pairs.length)] ?? 'amount=1.00'));
  return pairs.join('&');
}

function validPayment(random: Random, context: FuzzContext): Parts {
  const body = `entityId=${context.entityId}&amount=${random.pick(AMOUNTS)}&currency=EUR&paymentType=${random.pick(['DB', 'PA', 'DB'])}&${CARD}`;
  return { method: 'POST', path: '/v1/payments', headers: [`Authorization: Bearer ${context.token}`, 'Content-Type: application/x-www-form-urlencoded'], body };
}

function validRegistration(random: Random, context: FuzzContext): Parts {
  const body = `entityId=${context.entityId}&${CARD.replace('&card.cvv=123', '')}`;
  const [path, extra] = random.chance(0.5) ? ['/v1/registrations', ''] : ['/v1/payments', `&amount=${random.pick(AMOUNTS)}&currency=EUR&paymentType=DB&createRegistration=true&card.cvv=123`];
  return { method: 'POST', path, headers: [`Authorization: Bearer ${context.token}`, 'Content-Type: application/x-www-form-urlencoded'], body: body + extra };
}

function validWebhook(context: FuzzContext): Parts {
  const body = `entity=${context.entityId}&url=${encodeURIComponent(context.webhookUrl)}`;
  return { method: 'POST', path: '/admin/webhooks', headers: [`Authorization: Bearer ${context.adminToken}`, 'Content-Type: application/x-www-form-urlencoded'], body };
}

function validReference(random: Random, context: FuzzContext): Parts {
  const id = context.paymentIds.length > 0 ? random.pick(context.paymentIds) : '0'.repeat(32);
  const amount = random.chance(0.8) ? `&amount=${random.pick(AMOUNTS)}&currency=EUR` : '';
  const body = `entityId=${context.entityId}&paymentType=${random.pick(['CP', 'RF', 'RV'])}${amount}${random.chance(0.2) ? '&sequence=FINAL' : ''}`;
  return { method: 'POST', path: `/v1/payments/${id}`, headers: [`Authorization: Bearer ${context.token}`, 'Content-Type: application/x-www-form-urlencoded'], body };
}

function formFuzz(random: Random, context: FuzzContext): Parts {
  const path = random.chance(0.7) ? '/v1/payments' : fillPath(random, '/v1/payments/{id}', context);
  const contentType = random.chance(0.9) ? 'application/x-www-form-urlencoded' : random.pick(CONTENT_TYPES);
  const body = random.chance(0.5) ? `${randomForm(random, context)}&${CARD}` : randomForm(random, context);
  return { method: 'POST', path, headers: [...authorization(random, context), `Content-Type: ${contentType}`], body };
}

function extraHeaders(random: Random): string[] {
  const headers: string[] = [];
  if (random.chance(0.1)) headers.push(`Idempotency-Key: ${random.pick([random.string(20, 'abcdef0123456789'), '', 'ä', 'x'.repeat(300), 'key with space'])}`);
  if (random.chance(0.05)) headers.push('X-Forwarded-Proto: https', `X-Forwarded-For: ${random.pick(['1.2.3.4', 'garbage', '::1, 10.0.0.1'])}`);
  if (random.chance(0.05)) headers.push(`Accept: ${random.pick(['*/*', 'text/html', 'application/json;q=0', '\u00ff'])}`);
  if (random.chance(0.05)) headers.push(`Accept-Encoding: ${random.pick(['gzip', 'br', 'deflate, gzip;q=1.0', 'identity;q=0'])}`);
  if (random.chance(0.05)) headers.push(`X-${random.string(1 + random.int(20), 'abcdefghij-')}: ${random.string(random.int(200), 'abc 123;=,')}`);
  return headers;
}

function requestFuzz(random: Random, context: FuzzContext): Parts {
  const method = random.pick(METHODS);
  const path = fillPath(random, random.pick(PATH_TEMPLATES), context) + (random.chance(0.2) ? `?${randomForm(random, context)}` : '');
  const withBody = method !== 'GET' && method !== 'HEAD' ? random.chance(0.8) : random.chance(0.05);
  const headers = [...authorization(random, context), ...extraHeaders(random)];
  if (withBody || random.chance(0.1)) headers.push(`Content-Type: ${random.pick(CONTENT_TYPES)}`);
  const body = !withBody ? '' : random.chance(0.7) ? randomForm(random, context) : random.chance(0.5) ? '{"amount":"1.00","nested":{"a":[1,2,{"b":null}]}}' : random.chance(0.98) ? random.string(random.int(2_000), '\u0000\u0001abc=&%\r\n\u00ff') : hugeValue(random).repeat(8);
  return { method, path, headers, body };
}

function encode(parts: Parts, host: string, version = 'HTTP/1.1', framing?: (body: Buffer) => string[]): Buffer {
  const body = Buffer.from(parts.body, 'utf8');
  const lengthHeaders = framing ? framing(body) : body.length > 0 || parts.method === 'POST' ? [`Content-Length: ${body.length}`] : [];
  const head = [`${parts.method} ${parts.path} ${version}`, `Host: ${host}`, ...parts.headers, ...lengthHeaders].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'utf8'), body]);
}

/** Requests whose HTTP framing is broken; each goes on a fresh connection, closed after the answer. */
function brokenFraming(random: Random, context: FuzzContext, host: string): Buffer {
  const parts = formFuzz(random, context);
  const chunked = (body: Buffer) => `${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n0\r\n\r\n`;
  switch (random.int(10)) {
    case 0: return Buffer.concat([encode({ ...parts, body: '' }, host, 'HTTP/1.1', () => ['Transfer-Encoding: chunked']), Buffer.from(chunked(Buffer.from(parts.body)), 'latin1')]);
    case 1: return Buffer.concat([encode({ ...parts, body: '' }, host, 'HTTP/1.1', () => ['Transfer-Encoding: chunked']), Buffer.from('zz\r\nabc\r\n0\r\n\r\n')]);
    case 2: return encode(parts, host, 'HTTP/1.1', (b) => [`Content-Length: ${b.length}`, 'Transfer-Encoding: chunked']);
    case 3: return encode(parts, host, 'HTTP/1.1', () => ['Content-Length: abc']);
    case 4: return encode(parts, host, 'HTTP/1.1', (b) => [`Content-Length: ${b.length}`, `Content-Length: ${b.length + 1}`]);
    case 5: return encode({ ...parts, headers: [...parts.headers, 'Header-Without-Colon'] }, host);
    case 6: return encode({ ...parts, headers: [...parts.headers, 'X-Nul: a\u0000b'] }, host);
    case 7: return encode({ ...parts, headers: [...parts.headers, `X-Huge: ${'h'.repeat(20_000)}`] }, host);
    case 8: return Buffer.from(`${random.pick(['HELLO', 'GET', 'GET /', 'GET / HTTP/9.9', 'GET /a b HTTP/1.1', '\u0000\u0001\u0002'])}\r\n\r\n`, 'latin1');
    default: return encode(parts, host, 'HTTP/1.1', (b) => [`Content-Length: ${Math.max(0, b.length - 1 - random.int(10))}`]);
  }
}

export function fuzzRequest(random: Random, context: FuzzContext, host: string): FuzzRequest {
  const roll = random.next();
  if (roll < 0.04) return { kind: 'broken framing', bytes: brokenFraming(random, context, host), isHead: false, wellFramed: false, secrets: [] };
  if (roll < 0.05) return { kind: 'HTTP/1.0', bytes: encode(formFuzz(random, context), host, 'HTTP/1.0'), isHead: false, wellFramed: true, secrets: [] };
  const endpoint = roll >= 0.6 ? endpointRequest(random, context) : undefined;
  const [kind, parts] =
    endpoint ? [`endpoint ${endpoint.route}`, endpoint] as const
    : roll < 0.1 ? ['valid payment', validPayment(random, context)] as const
    : roll < 0.12 ? ['valid registration', validRegistration(random, context)] as const
    // A few active webhooks (each payment is sent to every one of them).
    : roll < 0.125 && context.webhookIds.length < 3 ? ['valid webhook', validWebhook(context)] as const
    : roll < 0.125 ? ['valid payment', validPayment(random, context)] as const
    : roll < 0.16 ? ['valid capture/refund/reversal', validReference(random, context)] as const
    : roll < 0.38 ? ['form fuzz', formFuzz(random, context)] as const
    : ['request fuzz', requestFuzz(random, context)] as const;
  // Raw spaces or control characters in the request line break the framing, as intended.
  // CONNECT asks for a tunnel; a server that offers none may just close the connection.
  const wellFramed = !/[\s\u0000-\u001f\u007f]/.test(parts.path) && /^[A-Z]+$/.test(parts.method) && parts.method !== 'CONNECT' && !parts.headers.some((h) => /[\u0000\r\n]/.test(h));
  const bytes = encode(parts, host);
  const text = bytes.toString('latin1');
  const secrets = [...new Set([...(endpoint?.secrets ?? []), ...PANS.filter((pan) => text.includes(pan))])];
  return { kind, bytes, isHead: parts.method === 'HEAD', wellFramed, secrets };
}
