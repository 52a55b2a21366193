/**
 * The raw material of the fuzz run: a seeded random source and pools of names, values, paths and
 * header values, from the well-formed to the hostile. Seeded, so a failing run can be replayed
 * with FUZZ_SEED.
 */

export class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0 || 1;
  }

  /** mulberry32: small, fast and good enough to pick test inputs. */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  string(length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}

/** Real parameter names of the catalogue, so a share of the fuzz reaches the validation rules. */
export const KNOWN_NAMES = [
  'entityId', 'amount', 'currency', 'paymentType', 'paymentBrand', 'descriptor', 'merchantTransactionId', 'merchantInvoiceId',
  'card.number', 'card.holder', 'card.expiryMonth', 'card.expiryYear', 'card.cvv', 'card.threeDSecure.eci', 'testMode',
  'customer.email', 'customer.givenName', 'customer.surname', 'customer.ip', 'customer.birthDate', 'customer.phone',
  'billing.street1', 'billing.city', 'billing.postcode', 'billing.country', 'billing.state', 'shipping.country',
  'cart.items[0].name', 'cart.items[0].quantity', 'cart.items[0].price', 'cart.items[1].merchantItemId',
  'customParameters[order]', 'customParameters[SHOPPER_x]', 'bankAccount.iban', 'bankAccount.holder', 'bankAccount.bic',
  'virtualAccount.accountId', 'tokenAccount.number', 'createRegistration', 'registrationId', 'recurringType',
  'standingInstruction.mode', 'standingInstruction.type', 'standingInstruction.source', 'standingInstruction.initialTransactionId',
  'threeDSecure.eci', 'threeDSecure.verificationId', 'threeDSecure.xid', 'sequence', 'numberOfCaptures', 'merchant.name',
  'risk.parameters[USER_DATA1]', 'shopperResultUrl', 'notificationUrl', 'date.from', 'date.to', 'limit', 'page',
] as const;

const HOSTILE_NAMES = [
  'cart.items[999999999999].name', 'cart.items[-1].name', 'cart.items[1e3].name', 'cart.items[].name', 'cart.items[0x10].name',
  'customParameters[', 'customParameters]', 'customParameters[[a]]', '__proto__', 'constructor', 'prototype', '__proto__[x]',
  'constructor.prototype.polluted', 'card..number', '.', '', '[]', 'card.number.', 'amount[]', 'amount[0]', 'toString', 'hasOwnProperty',
] as const;

const VALID_VALUES = ['92.00', '1.00', '0.01', 'EUR', 'USD', 'JPY', 'DB', 'PA', 'CP', 'RF', 'RV', 'CD', 'VISA', 'MASTER', 'AMEX',
  '4200000000000000', '5454545454545454', 'Jane Jones', '05', '12', '2034', '123', 'INTERNAL', 'EXTERNAL', 'true', 'false',
  'jane@example.com', 'DE', 'GB', 'DE23100000001234567890', 'FINAL', 'UNSCHEDULED', 'CIT', 'MIT', '2026-01-01 00:00:00'] as const;

/** Percent-encoded bits of trouble, pasted raw into form bodies and paths. */
const ENCODED_TROUBLE = ['%zz', '%', '%0', '%00', '%E0%A4', '%ff%fe', '%C0%AF', '%2e%2e%2f', '%0d%0a', '%25', '+', '%2B', '&', '=', '==', '&&=&'];

const UNICODE = ['ü', 'ß', '日本語', '🙂💳', '\u202e', 'e\u0301', '\uFEFF', '𝟘𝟙', 'Ωmega', '\u0000', '\uD800'];

export function hugeValue(random: Random): string {
  return 'A'.repeat(1_000 + random.int(random.chance(0.1) ? 200_000 : 20_000));
}

/** A form value: well-formed, subtly wrong, or hostile (raw, not yet encoded). */
export function randomValue(random: Random): string {
  const roll = random.next();
  if (roll < 0.35) return random.pick(VALID_VALUES);
  if (roll < 0.5) return random.string(1 + random.int(40), '0123456789.,-+eE ');
  if (roll < 0.65) return random.pick(UNICODE) + random.string(random.int(10), 'abcXYZ');
  if (roll < 0.75) return random.string(random.int(30), 'abcdefghijklmnopqrstuvwxyz0123456789!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
  if (roll < 0.8) return hugeValue(random);
  if (roll < 0.9) return '';
  return random.string(1 + random.int(20), '\u0000\u0001\u001f\u007f\t\r\n');
}

export function randomName(random: Random): string {
  const roll = random.next();
  if (roll < 0.6) return random.pick(KNOWN_NAMES);
  if (roll < 0.75) return random.pick(HOSTILE_NAMES);
  if (roll < 0.85) return `a${'[0]'.repeat(1 + random.int(200))}`;
  return random.string(1 + random.int(30), 'abcdefghijklmnopqrstuvwxyz.[]_0123456789');
}

/** One name=value pair as it appears on the wire: mostly encoded, sometimes with raw trouble mixed in. */
export function randomPair(random: Random): string {
  const name = encodeURIComponent(randomName(random));
  const value = randomValue(random);
  const encoded = random.chance(0.85) ? encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '?')) : value;
  const trouble = random.chance(0.15) ? random.pick(ENCODED_TROUBLE) : '';
  return random.chance(0.03) ? name : `${name}=${encoded}${trouble}`;
}

export const PATH_TEMPLATES = [
  '/v1/payments', '/v1/payments/{id}', '/v1/payments/{junk}', '/v1/query', '/v1/query/{id}', '/v1/resultcodes', '/health',
  '/openapi.json', '/docs', '/admin/entities', '/admin/tokens', '/v1/checkouts', '/v1/registrations/{id}', '/', '/v1', '/v1/',
  '/v1/payments/', '/v1//payments', '/V1/PAYMENTS', '/v1/payments/{id}/extra', '/%2e%2e/%2e%2e/etc/passwd', '/v1/payments/%zz',
  '/v1/payments/%00', '/v1/payments/%E0%A4', '/v1/payments?%', '/*', '/v1/payments;jsessionid=1', '/v1/payments/{id}?entityId={entity}',
  '/v1/query?entityId={entity}&merchantTransactionId=%zz', '/v1/query?entityId={entity}&date.from=2026-01-01%2000:00:00&date.to=x',
] as const;

export const CONTENT_TYPES = [
  'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=UTF-8', 'APPLICATION/X-WWW-FORM-URLENCODED',
  'application/x-www-form-urlencoded; charset=latin1', 'application/json', 'multipart/form-data; boundary=x', 'text/plain',
  'application/xml', '', ';', 'application/x-www-form-urlencoded, application/json', 'x/y; a="b', '*/*',
] as const;

export const METHODS = ['GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'get', 'P0ST', 'CONNECT'] as const;
