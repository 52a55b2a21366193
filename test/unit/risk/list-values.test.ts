import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalEmail } from '../../../src/domain/risk/canonical-email.js';
import type { ListKind } from '../../../src/domain/risk/facts.js';
import { canonicalIp, velocityKeyHash } from '../../../src/domain/risk/keys.js';
import { parseListValue } from '../../../src/domain/risk/list-values.js';

test('list values: one normalised form whatever the formatting; cards and IBANs stay secret', () => {
  const cases: [ListKind, string, string | null][] = [
    ['card', '4200000000000000', 'secret:4200000000000000'],
    ['card', '4200 0000 0000 0000', 'secret:4200000000000000'],
    ['card', ' 4200-0000-0000-0000 ', 'secret:4200000000000000'],
    ['card', '4200000000000001', null],
    ['iban', 'de23 1000 0000 1234 5678 90', 'secret:DE23100000001234567890'],
    ['iban', 'DE00100000001234567890', null],
    ['bin', '420000', '420000'],
    ['bin', '42000', null],
    ['email', ' Jane@Example.COM ', canonicalEmail('jane@example.com')],
    ['email', 'Jane+Promo@Example.COM.', canonicalEmail('jane@example.com')],
    ['email', 'jane', null],
    ['ip', '::ffff:192.0.2.1', '192.0.2.1'],
    ['ip', '2001:DB8::1', '2001:db8:0:0:0:0:0:1'],
    ['ip', '300.1.1.1', null],
    ['country', 'de', 'DE'],
    ['country', 'XX', null],
  ];
  for (const [kind, raw, expected] of cases) {
    const parsed = parseListValue(kind, raw);
    const got = 'error' in parsed ? null : parsed.secret ? `secret:${parsed.number}` : parsed.value;
    assert.equal(got, expected, `${kind} ${raw}`);
    if (!('error' in parsed) && parsed.secret) assert.doesNotMatch(parsed.shown, /0000000000|1234567890/);
  }
});

test('velocity keys: per merchant and kind; IPs in one form', () => {
  assert.notEqual(velocityKeyHash('m1', 'email', 'a@b.c'), velocityKeyHash('m2', 'email', 'a@b.c'));
  assert.notEqual(velocityKeyHash('m1', 'email', 'x'), velocityKeyHash('m1', 'customer', 'x'));
  assert.match(velocityKeyHash('m1', 'ip', '192.0.2.1'), /^[0-9a-f]{32}$/);
  assert.equal(canonicalIp('::ffff:192.0.2.1'), canonicalIp('192.0.2.1'));
});

test('IP addresses: one form, the plain dotted quad answered as it is', () => {
  const cases: [string, string | undefined][] = [
    ['192.0.2.1', '192.0.2.1'],
    [' 10.0.0.1 ', '10.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    ['1.2.3.04', '1.2.3.4'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:DB8::1', '2001:db8:0:0:0:0:0:1'],
    ['256.1.1.1', undefined],
    ['1.2.3', '1.2.0.3'], // ipaddr.js reads the short forms as inet_aton does
    ['shopper', undefined],
    ['', undefined],
  ];
  for (const [raw, expected] of cases) assert.equal(canonicalIp(raw), expected, raw);
});
