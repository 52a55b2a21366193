/**
 * A mixed workload that handles card data every way the API allows, for the dump test: card
 * payments and their captures, refunds and reversals, registrations (direct and through
 * createRegistration), payments with a registration, a deletion, declined and invalid cards, and
 * payments that carry a card number where none belongs (free text: descriptor, names, address,
 * custom parameters, cart), written plain, with spaces and with dashes, and then in every field of
 * the catalogue in every other separator form (card-text-fuzz.ts). Those must be refused; whatever
 * the gateway stores or logs of any request is what the dump searches.
 */
import { runSeparatorFuzz, type FuzzReport } from './card-text-fuzz.js';

export interface Answer {
  readonly status: number;
  readonly body: string;
}

/** Sends one form request (GET and DELETE: fields in the query) and answers status and body. */
export type Send = (method: 'GET' | 'POST' | 'DELETE', path: string, fields: Record<string, string>) => Promise<Answer>;

export const WORKLOAD_CARDS = [
  { number: '4200000000000000', brand: 'VISA', cvv: '123' },
  { number: '5454545454545454', brand: 'MASTER', cvv: '456' },
  { number: '378282246310005', brand: 'AMEX', cvv: '7890' },
  { number: '4000000000000002', brand: 'VISA', cvv: '321' },
] as const;

const FREE_TEXT_FIELDS = ['descriptor', 'merchantTransactionId', 'merchantInvoiceId', 'customer.givenName', 'customer.surname', 'customer.email', 'billing.street1', 'billing.city', 'shipping.street1', 'customParameters[note]', 'cart.items[0].name', 'card.holder'];

const shapes = (pan: string) => [pan, pan.replace(/(\d{4})(?=\d)/g, '$1 '), pan.replace(/(\d{4})(?=\d)/g, '$1-')];

const idOf = (answer: Answer, key = 'id') => (JSON.parse(answer.body) as Record<string, string>)[key];

export interface WorkloadReport extends Partial<FuzzReport> {
  readonly requests: number;
  readonly byStatus: Record<string, number>;
  /** Free-text card numbers the gateway accepted (should be none once it refuses them). */
  readonly misplacedAccepted: string[];
}

export async function runCardWorkload(send: Send, entityId: string): Promise<WorkloadReport> {
  const byStatus: Record<string, number> = {};
  let requests = 0;
  const call: Send = async (method, path, fields) => {
    const answer = await send(method, path, { entityId, ...fields });
    requests += 1;
    byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    return answer;
  };
  const card = (c: (typeof WORKLOAD_CARDS)[number], withCvv = true) => ({ paymentBrand: c.brand, 'card.number': c.number, 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', ...(withCvv ? { 'card.cvv': c.cvv } : {}) });
  const pay = (fields: Record<string, string>) => call('POST', '/v1/payments', { amount: '25.00', currency: 'EUR', paymentType: 'DB', ...fields });

  for (const c of WORKLOAD_CARDS) {
    const debit = await pay(card(c));
    const pa = await pay({ ...card(c), paymentType: 'PA' });
    if (pa.status === 200) {
      await call('POST', `/v1/payments/${idOf(pa)}`, { paymentType: 'CP', amount: '10.00', currency: 'EUR' });
      await call('POST', `/v1/payments/${idOf(pa)}`, { paymentType: 'RV' });
    }
    if (debit.status === 200) {
      await call('POST', `/v1/payments/${idOf(debit)}`, { paymentType: 'RF', amount: '5.00', currency: 'EUR' });
      await call('GET', `/v1/payments/${idOf(debit)}`, {});
    }
    const withRegistration = await pay({ ...card(c), createRegistration: 'true' });
    const registration = await call('POST', '/v1/registrations', card(c, false));
    for (const registrationId of [withRegistration.status === 200 ? idOf(withRegistration, 'registrationId') : undefined, registration.status === 200 ? idOf(registration) : undefined]) {
      if (!registrationId) continue;
      await call('GET', `/v1/registrations/${registrationId}`, {});
      await call('POST', `/v1/registrations/${registrationId}/payments`, { amount: '12.00', currency: 'EUR', paymentType: 'DB', 'card.cvv': c.cvv });
    }
    if (registration.status === 200) await call('DELETE', `/v1/registrations/${idOf(registration)}`, {});
    // Invalid cards: a wrong expiry, a short CVV, a number that fails the Luhn check by one digit.
    await pay({ ...card(c), 'card.expiryMonth': '13' });
    await pay({ ...card(c), 'card.cvv': '1' });
  }
  await call('GET', '/v1/query', { limit: '100' });

  const misplacedAccepted: string[] = [];
  let n = 0;
  for (const field of FREE_TEXT_FIELDS) {
    for (const shape of shapes(WORKLOAD_CARDS[n % WORKLOAD_CARDS.length]!.number)) {
      n += 1;
      const value = field === 'customer.email' ? `${shape.replace(/ /g, '')}@example.com` : field === 'merchantTransactionId' ? `order ${shape}` : `${shape}`;
      const answer = await pay({ ...card(WORKLOAD_CARDS[0]), [field]: value });
      if (answer.status === 200) misplacedAccepted.push(`${field} (${shape.includes(' ') ? 'spaces' : shape.includes('-') ? 'dashes' : 'plain'})`);
    }
  }
  const fuzz = await runSeparatorFuzz(call);
  return { requests, byStatus, misplacedAccepted, ...fuzz };
}
