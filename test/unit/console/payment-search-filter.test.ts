import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCursor, encodeCursor, type SearchCursor } from '../../../src/domain/payment-search/search-cursor.js';
import { parsePaymentSearch, parseTypedAmount, type PaymentFilter } from '../../../src/domain/payment-search/search-filter.js';
import { paymentSearchTerms } from '../../../src/domain/payment-search/search-terms.js';
import { neutraliseFormula } from '../../../src/operations/console/export-payments.js';

describe('parsePaymentSearch: one row per field and rule', () => {
  const ok: { form: Record<string, string>; filter: PaymentFilter }[] = [
    { form: {}, filter: {} },
    { form: { id: '  0123456789abcdef0123456789abcdef ' }, filter: { id: '0123456789abcdef0123456789abcdef' } },
    { form: { merchantTransactionId: 'order-42' }, filter: { merchantTransactionId: 'order-42' } },
    { form: { shortId: '1234.5678.9012' }, filter: { shortId: '1234.5678.9012' } },
    { form: { bin: '411111' }, filter: { bin: '411111' } },
    { form: { bin: '41111111' }, filter: { bin: '41111111' } },
    { form: { last4: '0042' }, filter: { last4: '0042' } },
    { form: { holder: '  Anna   MÜLLER ' }, filter: { holder: 'Anna   MÜLLER' } },
    { form: { email: 'Shopper@Example.COM' }, filter: { email: 'Shopper@Example.COM' } },
    { form: { ip: '10.0.0.1' }, filter: { ip: '10.0.0.1' } },
    { form: { ip: '2001:DB8::1' }, filter: { ip: '2001:db8::1' } },
    { form: { amountFrom: '12', amountTo: '12.5' }, filter: { amountFromMinor: 1200n, amountToMinor: 1250n } },
    { form: { amountFrom: '0,99' }, filter: { amountFromMinor: 99n } },
    { form: { amountTo: '9999999999999.99' }, filter: { amountToMinor: 999999999999999n } },
    { form: { currency: 'eur' }, filter: { currency: 'EUR' } },
    { form: { brand: 'visa' }, filter: { brand: 'VISA' } },
    { form: { paymentType: 'db' }, filter: { paymentType: 'DB' } },
    { form: { result: '000.100.110' }, filter: { resultCode: '000.100.110' } },
    { form: { result: 'Declined' }, filter: { resultGroup: 'declined' } },
    { form: { status: 'PENDING' }, filter: { status: 'pending' } },
    { form: { channel: 'ab'.repeat(16) }, filter: { channel: 'ab'.repeat(16) } },
    { form: { connector: 'simulator' }, filter: { connector: 'simulator' } },
    { form: { from: '2026-11-01', to: '2026-11-01' }, filter: { createdFrom: new Date('2026-11-01T00:00:00Z'), createdBefore: new Date('2026-11-02T00:00:00Z') } },
  ];
  for (const row of ok) {
    it(`accepts ${JSON.stringify(row.form)}`, () => {
      const parsed = parsePaymentSearch(row.form);
      assert.ok(parsed.ok, String(!parsed.ok && JSON.stringify(parsed.errors)));
      assert.deepEqual(parsed.search.filter, row.filter);
    });
  }

  const refused: { form: Record<string, string>; field: string; message: RegExp }[] = [
    { form: { id: 'xyz' }, field: 'id', message: /32 characters/ },
    { form: { shortId: '1234' }, field: 'shortId', message: /1234\.5678\.9012/ },
    { form: { bin: '4111' }, field: 'bin', message: /6 or 8 digits/ },
    { form: { last4: '123' }, field: 'last4', message: /last 4/ },
    { form: { holder: 'x'.repeat(129) }, field: 'holder', message: /at most 128/ },
    { form: { email: 'nobody' }, field: 'email', message: /e-mail/ },
    { form: { ip: '10.0.0.300' }, field: 'ip', message: /IPv4 or IPv6/ },
    { form: { amountFrom: '12.345' }, field: 'amountFrom', message: /two decimals/ },
    { form: { amountFrom: '-5' }, field: 'amountFrom', message: /amount/ },
    { form: { amountFrom: '1e3' }, field: 'amountFrom', message: /amount/ },
    { form: { amountFrom: '20', amountTo: '10' }, field: 'amountTo', message: /not below/ },
    { form: { currency: 'EURO' }, field: 'currency', message: /currency code/ },
    { form: { brand: 'VI SA' }, field: 'brand', message: /brand/ },
    { form: { paymentType: 'XX' }, field: 'paymentType', message: /one of PA, DB/ },
    { form: { result: 'refused' }, field: 'result', message: /result code/ },
    { form: { status: 'done' }, field: 'status', message: /success, pending, rejected/ },
    { form: { channel: 'nope' }, field: 'channel', message: /channel id/ },
    { form: { connector: 'a b' }, field: 'connector', message: /connector/ },
    { form: { from: '2026-02-30' }, field: 'from', message: /date/ },
    { form: { from: '2026-11-02', to: '2026-11-01' }, field: 'to', message: /not before/ },
    { form: { sort: 'holder' }, field: 'sort', message: /created or amount/ },
    { form: { order: 'up' }, field: 'order', message: /desc or asc/ },
    { form: { holder: '4111 1111 1111 1111' }, field: 'holder', message: /never a card number/ },
  ];
  for (const row of refused) {
    it(`refuses ${JSON.stringify(row.form)} on ${row.field}`, () => {
      const parsed = parsePaymentSearch(row.form);
      assert.equal(parsed.ok, false);
      const error = !parsed.ok ? parsed.errors.find((e) => e.field === row.field) : undefined;
      assert.match(error?.message ?? '', row.message);
    });
  }

  it('reports every broken field at once, and never echoes a card number', () => {
    const parsed = parsePaymentSearch({ bin: '4', last4: 'x', merchantTransactionId: '4111111111111111' });
    assert.equal(parsed.ok, false);
    assert.deepEqual(!parsed.ok && parsed.errors.map((e) => e.field).sort(), ['bin', 'last4', 'merchantTransactionId']);
    assert.equal(parsed.form.merchantTransactionId, undefined);
  });

  it('sorts by created_at, newest first, unless asked otherwise', () => {
    const parsed = parsePaymentSearch({ sort: 'amount', order: 'asc' });
    assert.ok(parsed.ok);
    assert.deepEqual([parsed.search.sort, parsed.search.order], ['amount', 'asc']);
    const plain = parsePaymentSearch({});
    assert.ok(plain.ok);
    assert.deepEqual([plain.search.sort, plain.search.order], ['created', 'desc']);
  });

  it('ignores fields it does not know and values that are not text', () => {
    assert.deepEqual(parsePaymentSearch({ other: 'x', bin: ['411111'] }), { ok: true, search: { filter: {}, sort: 'created', order: 'desc' }, form: {} });
  });
});

describe('parseTypedAmount: exact minor units', () => {
  const rows: [string, bigint][] = [['0', 0n], ['7', 700n], ['7.5', 750n], ['7.05', 705n], ['1 234.56', 123456n], ['0.10', 10n], ['9007199254740.93', 900719925474093n]];
  for (const [text, minor] of rows) it(`${text} → ${minor}`, () => assert.deepEqual(parseTypedAmount(text), { value: minor }));
});

describe('search cursors', () => {
  const cursor: SearchCursor = { sort: 'created', order: 'desc', direction: 'after', key: '2026-11-27T08:00:00.123456Z', id: 'a'.repeat(32) };
  it('round-trips', () => assert.deepEqual(decodeCursor(encodeCursor(cursor), 'created', 'desc'), cursor));
  it('round-trips an amount key', () => {
    const amount: SearchCursor = { ...cursor, sort: 'amount', order: 'asc', direction: 'before', key: '12345' };
    assert.deepEqual(decodeCursor(encodeCursor(amount), 'amount', 'asc'), amount);
  });
  const refused: [string, string][] = [
    ['another sort', encodeCursor({ ...cursor, sort: 'amount', key: '1' })],
    ['another order', encodeCursor({ ...cursor, order: 'asc' })],
    ['a key of the wrong form', encodeCursor({ ...cursor, key: '2026-11-27' })],
    ['an id of the wrong form', encodeCursor({ ...cursor, id: "x' OR 1=1" })],
    ['no base64url', 'not a cursor!'],
    ['base64 of no JSON', Buffer.from('{').toString('base64url')],
    ['JSON of the wrong shape', Buffer.from('{"a":1}').toString('base64url')],
    ['too long', 'a'.repeat(201)],
  ];
  for (const [name, text] of refused) it(`refuses ${name}`, () => assert.equal(decodeCursor(text, 'created', 'desc'), undefined));
});

describe('neutraliseFormula', () => {
  const rows: [string, string][] = [['=SUM(A1)', "'=SUM(A1)"], ['+1', "'+1"], ['-1', "'-1"], ['@cmd', "'@cmd"], ['\tx', "'\tx"], ['Anna', 'Anna'], ['', ''], ['a=b', 'a=b']];
  for (const [value, expected] of rows) it(JSON.stringify(value), () => assert.equal(neutraliseFormula(value), expected));
});

describe('paymentSearchTerms: what a row is found by', () => {
  it('takes BIN, last four, holder, e-mail and IP from the response, folded, and the row\'s own facts', () => {
    const terms = paymentSearchTerms({
      response: { card: { bin: '411111', last4Digits: '1111', holder: '  Anna   MÜLLER ' }, customer: { email: 'Anna@Example.COM', ip: '2001:DB8::1' } },
      merchantTransactionId: 'Order-1', currency: 'EUR', paymentBrand: 'VISA', paymentType: 'DB',
    });
    assert.deepEqual(terms, ['bin:411111', 'last4:1111', 'holder:anna müller', 'email:anna@example.com', 'ip:2001:db8::1', 'mtid:Order-1', 'currency:EUR', 'brand:VISA', 'type:DB']);
  });
  it('leaves out what the payment does not have', () => {
    assert.deepEqual(paymentSearchTerms({ response: { card: 'odd' }, merchantTransactionId: null, currency: 'EUR', paymentBrand: null, paymentType: 'RF' }), ['currency:EUR', 'type:RF']);
  });
});
