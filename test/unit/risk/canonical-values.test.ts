import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalEmail, displayEmail } from '../../../src/domain/risk/canonical-email.js';
import { canonicalIp } from '../../../src/domain/risk/keys.js';
import { parseListValue } from '../../../src/domain/risk/list-values.js';

/** Issue 29, item 13: the ways around a blacklisted address, each a row. */
describe('canonical e-mail addresses: every way of writing bad@evil.test is bad@evil.test', () => {
  const listed = canonicalEmail('bad@evil.test');
  const same: [string, string][] = [
    ['as listed', 'bad@evil.test'],
    ['upper case', 'BAD@Evil.TEST'],
    ['surrounding spaces', ' bad@evil.test '],
    ['trailing dot of the domain', 'bad@evil.test.'],
    ['two trailing dots', 'bad@evil.test..'],
    ['quoted local part', '"bad"@evil.test'],
    ['quoted local part with an escaped letter', '"b\\ad"@evil.test'],
    ['a comment in the local part', 'bad(promo)@evil.test'],
    ['zero-width space', 'b\u200Bad@evil.test'],
    ['zero-width non-joiner and joiner', 'b\u200Ca\u200Dd@evil.test'],
    ['word joiner in the domain', 'bad@ev\u2060il.test'],
    ['byte order mark', '\uFEFFbad@evil.test'],
    ['soft hyphen', 'ba\u00ADd@evil.test'],
    ['right-to-left mark', 'bad\u200F@evil.test'],
    ['Cyrillic а in the local part', 'b\u0430d@evil.test'],
    ['Cyrillic е in the domain', 'bad@\u0435vil.test'],
    ['Cyrillic і in the domain', 'bad@ev\u0456l.test'],
    ['Cyrillic ԁ for d', 'ba\u0501@evil.test'],
    ['the Cyrillic domain as punycode', 'bad@xn--evl-khd.test'],
    ['full-width letters', '\uFF42\uFF41\uFF44@\uFF45\uFF56\uFF49\uFF4C.\uFF54\uFF45\uFF53\uFF54'],
    ['full-width at sign folded', 'bad\uFF20evil.test'],
    ['sub-address', 'bad+x@evil.test'],
    ['empty sub-address', 'bad+@evil.test'],
    ['sub-address with dots', 'bad+a.b.c@evil.test'],
    ['quoted with its sub-address', '"bad+x"@evil.test'],
    ['quotes the parser refuses', '"bad"+x@evil.test'],
    ['ideographic full stop as the trailing dot (IDNA reads it as a dot)', 'bad@evil.test\u3002'],
    ['ideographic full stop between the labels', 'bad@evil\u3002test'],
    ['half-width ideographic full stop between the labels', 'bad@evil\uFF61test'],
    ['a comment after the domain', 'bad@evil.test(promo)'],
    ['a comment before the domain', 'bad@(promo)evil.test'],
    ['everything at once', '"B\u200B\u0430d+x"@\uFF25VIL.test.'],
  ];
  for (const [name, address] of same) {
    it(`${name}: ${JSON.stringify(address)}`, () => {
      assert.equal(canonicalEmail(address), listed);
      assert.equal(canonicalEmail(canonicalEmail(address)), canonicalEmail(address), 'a stored form is its own form');
    });
  }

  const other: [string, string][] = [
    ['another mailbox', 'bad2@evil.test'],
    ['another domain', 'bad@evil.tests'],
    ['a hyphen is no sub-address on an unknown domain', 'bad-x@evil.test'],
    ['a letter with a diacritic is another letter', 'b\u00E4d@evil.test'],
  ];
  for (const [name, address] of other) {
    it(`not the same: ${name}`, () => assert.notEqual(canonicalEmail(address), listed));
  }

  it('the providers\' own rules: Gmail\'s dots and googlemail.com, Yahoo\'s hyphen', () => {
    assert.equal(canonicalEmail('B.A.D+promo@GoogleMail.com'), canonicalEmail('bad@gmail.com'));
    assert.equal(canonicalEmail('bad@gm\u0430il.com'), canonicalEmail('bad@gmail.com'));
    assert.equal(canonicalEmail('bad-shop@yahoo.com'), canonicalEmail('bad@yahoo.com'));
    assert.notEqual(canonicalEmail('b.ad@evil.test'), listed, 'dots count on other domains');
  });

  it('a list entry is stored in the canonical form and shown as written, without invisible characters', () => {
    const parsed = parseListValue('email', ' "Bad"+Promo@Evil.Test.\u200B ');
    assert.ok(!('error' in parsed) && !parsed.secret);
    assert.equal(parsed.value, listed);
    assert.equal(parsed.shown, '"bad"+promo@evil.test.');
    assert.equal(displayEmail('J\u200Bane@Example.COM'), 'jane@example.com');
  });
});

describe('canonical IP addresses: every form of a blacklisted IPv4 is that IPv4', () => {
  const same: [string, string][] = [
    ['as listed', '198.51.100.66'],
    ['IPv4-mapped', '::ffff:198.51.100.66'],
    ['IPv4-mapped in hex', '::ffff:c633:6442'],
    ['IPv4-mapped, full form', '0:0:0:0:0:FFFF:C633:6442'],
    ['IPv4-translated (RFC 6145)', '::ffff:0:c633:6442'],
    ['NAT64 well-known prefix, dotted', '64:ff9b::198.51.100.66'],
    ['NAT64 well-known prefix, hex', '64:ff9b::c633:6442'],
    ['6to4', '2002:c633:6442::1'],
    ['6to4, another host of the site', '2002:c633:6442:abcd:1:2:3:4'],
    ['Teredo (the client address inverted)', '2001:0:4136:e378:8000:63bf:39cc:9bbd'],
    ['hexadecimal dotted', '0xc6.0x33.0x64.0x42'],
    ['one number', String(198 * 2 ** 24 + 51 * 2 ** 16 + 100 * 2 ** 8 + 66)],
    // customer.ip is free text: what a merchant's framework hands over as the peer's address.
    ['with its port (Azure\'s X-Forwarded-For, a socket address)', '198.51.100.66:51234'],
    ['IPv6 in brackets', '[::ffff:198.51.100.66]'],
    ['IPv6 in brackets with a port', '[64:ff9b::c633:6442]:443'],
  ];
  for (const [name, ip] of same) {
    it(`${name}: ${ip}`, () => {
      assert.equal(canonicalIp(ip), '198.51.100.66');
      assert.equal(canonicalIp(canonicalIp(ip)!), canonicalIp(ip));
    });
  }

  const other: [string, string, string][] = [
    ['NAT64 local-use prefix: its length is the network\'s choice', '64:ff9b:1::c633:6442', '64:ff9b:1:0:0:0:c633:6442'],
    ['an IPv6 address that embeds nothing', '2001:db8::c633:6442', '2001:db8:0:0:0:0:c633:6442'],
    ['an IPv6 zone is dropped', 'fe80::1%eth0', 'fe80:0:0:0:0:0:0:1'],
  ];
  for (const [name, ip, expected] of other) {
    it(`${name}: ${ip}`, () => assert.equal(canonicalIp(ip), expected));
  }

  it('a list entry takes the same form', () => {
    const parsed = parseListValue('ip', '2002:c633:6442::1');
    assert.ok(!('error' in parsed) && !parsed.secret);
    assert.equal(parsed.value, '198.51.100.66');
  });
});
