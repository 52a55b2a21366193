/**
 * Issue 29, item 6: every field of the catalogue that may not hold a card number (payments and
 * checkouts: descriptor, merchantTransactionId, customParameters, customer, billing, shipping, cart
 * …, and the partly exempt phone and identity-document fields), each sent a card number written in
 * one of the separator forms (dots, slashes, zero-width characters, full-width digits …), alone
 * and all together, around random text. Every one must be refused with 200.100.404 naming the
 * field; the dump and the log are then searched for the numbers in any form (card-scan.ts).
 */
import { endpointCatalogue } from '../../../src/catalogue/catalogue.js';
import { concreteName } from '../../../src/catalogue/names.js';
import type { ParameterRow } from '../../../src/catalogue/types.js';
import { separatorForms } from '../../support/card-numbers.js';
import type { Send } from './card-workload.js';

/** Never used as a card number by the workload, so any trace of them in a dump or log is a leak. */
export const FUZZ_NUMBERS = ['4111111111111111', '378282246310005', '5555555555554444', '6011111111111117'] as const;

const AROUND: readonly [string, string][] = [
  ['', ''],
  ['ref ', ''],
  ['Order 17, card ', ' thanks'],
  ['Jane ', ' Jones'],
  ['n°', '/2026'],
];

interface Target {
  readonly endpoint: 'payment' | 'checkout';
  readonly path: string;
  readonly base: Record<string, string>;
}

const PAYMENT_BASE = { amount: '25.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' };
const TARGETS: readonly Target[] = [
  { endpoint: 'payment', path: '/v1/payments', base: PAYMENT_BASE },
  { endpoint: 'checkout', path: '/v1/checkouts', base: { amount: '25.00', currency: 'EUR', paymentType: 'DB' } },
];

/** The fields a card number must never pass in: every row but the fully exempt ones (card.number, ids …). */
function checkedNames(endpoint: Target['endpoint']): string[] {
  return endpointCatalogue(endpoint)
    .rows.filter((entry) => entry.cardNumberMinDigits !== undefined)
    .map((entry) => sampleName(entry.row));
}

const sampleName = (row: ParameterRow) => concreteName(row.name, [], row.keyFormat?.sample ?? 'note');

/** Phone and identity-document fields refuse only numbers that look issued: all of FUZZ_NUMBERS do. */
function valueFor(index: number): { value: string; number: string; form: string } {
  const number = FUZZ_NUMBERS[index % FUZZ_NUMBERS.length]!;
  const forms = separatorForms(number);
  const [form, written] = forms[Math.floor(index / FUZZ_NUMBERS.length) % forms.length]!;
  const [before, after] = AROUND[index % AROUND.length]!;
  return { value: `${before}${written}${after}`, number, form };
}

function refusedAsCardNumber(body: string, name: string): boolean {
  try {
    const result = (JSON.parse(body) as { result?: { code?: string; parameterErrors?: { name: string; message: string }[] } }).result;
    return result?.parameterErrors?.some((error) => error.name === name && error.message === 'must not contain a card number') === true;
  } catch {
    return false;
  }
}

export interface FuzzReport {
  readonly fuzzRequests: number;
  readonly fuzzFields: number;
  /** `endpoint field (form)` for every value not refused as a card number. */
  readonly notRefused: string[];
}

/** One request per field (its own form), then one per form with every field at once. */
export async function runSeparatorFuzz(call: Send): Promise<FuzzReport> {
  const notRefused: string[] = [];
  let requests = 0;
  let fields = 0;
  for (const target of TARGETS) {
    const names = checkedNames(target.endpoint);
    fields += names.length;
    for (const [index, name] of names.entries()) {
      const { value, form } = valueFor(index);
      const answer = await call('POST', target.path, { ...target.base, [name]: value });
      requests += 1;
      if (!refusedAsCardNumber(answer.body, name)) notRefused.push(`${target.endpoint} ${name} (${form}): ${answer.status}`);
    }
    const formCount = separatorForms(FUZZ_NUMBERS[0]).length * FUZZ_NUMBERS.length;
    for (let round = 0; round < formCount; round += FUZZ_NUMBERS.length) {
      const all = Object.fromEntries(names.map((name, index) => [name, valueFor(round + index).value]));
      const answer = await call('POST', target.path, { ...target.base, ...all });
      requests += 1;
      const missed = names.filter((name) => !refusedAsCardNumber(answer.body, name));
      if (missed.length > 0) notRefused.push(`${target.endpoint} all fields, round ${round}: ${answer.status}, not refused: ${missed.slice(0, 5).join(', ')}`);
    }
  }
  return { fuzzRequests: requests, fuzzFields: fields, notRefused };
}
