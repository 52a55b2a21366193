/**
 * The terms a transaction is found by in the console's search (migration 048's search_terms),
 * made in the gateway as the row is written: the same as the migration's SQL function
 * payment_search_terms, which only fills rows written before 048. Computing them here spares the
 * database a jsonb parse and a SQL function call per inserted row (measured: docs/performance.md).
 */
export interface TermSource {
  readonly response: Readonly<Record<string, unknown>>;
  readonly merchantTransactionId: string | null;
  readonly currency: string;
  readonly paymentBrand: string | null;
  readonly paymentType: string;
}

/** Free text as compared: trimmed, inner whitespace one space, lower case. */
export function searchText(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

const field = (value: unknown, key: string): string | undefined => {
  const found = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return typeof found === 'string' ? found : undefined;
};

export function paymentSearchTerms(t: TermSource): string[] {
  const card = t.response['card'];
  const customer = t.response['customer'];
  const terms: [string, string | undefined | null][] = [
    ['bin', field(card, 'bin')],
    ['last4', field(card, 'last4Digits')],
    ['holder', mapped(field(card, 'holder'), searchText)],
    ['email', mapped(field(customer, 'email'), searchText)],
    ['ip', mapped(field(customer, 'ip'), (ip) => ip.toLowerCase())],
    ['mtid', t.merchantTransactionId],
    ['currency', t.currency],
    ['brand', t.paymentBrand],
    ['type', t.paymentType],
  ];
  return terms.filter((term): term is [string, string] => typeof term[1] === 'string').map(([kind, value]) => `${kind}:${value}`);
}

function mapped(value: string | undefined, to: (value: string) => string): string | undefined {
  return value === undefined ? undefined : to(value);
}
