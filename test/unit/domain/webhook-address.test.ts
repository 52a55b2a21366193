import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAddress, judgeAddress, parseAllowList, type AddressClass } from '../../../src/domain/webhook-address.js';
import { webhookUrlProblem, type WebhookTargetRules } from '../../../src/domain/webhook-url.js';

describe('which addresses a webhook may reach', () => {
  // One row per range: an address and what it is. Only 'public' may be sent to.
  const table: [address: string, expected: AddressClass][] = [
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.0.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['4000::1', 'reserved'],
    ['2001::1', 'reserved'], // Teredo
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['169.254.169.254', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    // IPv4 inside IPv6: judged by the IPv4 address the packets reach.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::7f00:1', 'loopback'], // NAT64 of 127.0.0.1
    ['64:ff9b::a9fe:a9fe', 'metadata'], // NAT64 of 169.254.169.254
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::1', 'private'], // local-use NAT64
    ['2002:7f00:1::1', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:a00:1::1', 'private'], // 6to4 of 10.0.0.1
    ['::7f00:1', 'reserved'], // deprecated IPv4-compatible form
    // Forms a resolver never answers; parsed as inet_aton would, so still judged by what they mean.
    ['0x7f000001', 'loopback'],
    ['2130706433', 'loopback'],
    ['localhost', 'notAnAddress'],
    ['', 'notAnAddress'],
  ];
  for (const [address, expected] of table) {
    it(`${address || '(empty)'} → ${expected}`, () => assert.equal(classifyAddress(address), expected));
  }

  it('the allow-list admits what it names, in either IPv4 or IPv4-mapped form, and nothing else', () => {
    const allowed = parseAllowList('127.0.0.1/32, ::1').ranges;
    assert.deepEqual(judgeAddress('127.0.0.1', allowed), { allowed: true });
    assert.deepEqual(judgeAddress('::ffff:127.0.0.1', allowed), { allowed: true });
    assert.deepEqual(judgeAddress('::1', allowed), { allowed: true });
    assert.deepEqual(judgeAddress('127.0.0.2', allowed), { allowed: false, addressClass: 'loopback' });
    assert.deepEqual(judgeAddress('10.0.0.1', allowed), { allowed: false, addressClass: 'private' });
    assert.deepEqual(judgeAddress('8.8.8.8', []), { allowed: true });
    assert.deepEqual(judgeAddress('169.254.169.254', []), { allowed: false, addressClass: 'metadata' });
  });

  it('parses the allow-list: single addresses become /32 or /128, bad entries are named', () => {
    assert.deepEqual(parseAllowList(' 127.0.0.1 ,::1,,10.0.0.0/8'), { ranges: ['127.0.0.1/32', '::1/128', '10.0.0.0/8'], invalid: [] });
    assert.deepEqual(parseAllowList('localhost,1.2.3.4/33,fe80::/129').invalid, ['localhost', '1.2.3.4/33', 'fe80::/129']);
    assert.deepEqual(parseAllowList(''), { ranges: [], invalid: [] });
  });
});

describe('which webhook URLs are refused before anything is sent', () => {
  const test: WebhookTargetRules = { httpsOnly: false, allowedAddresses: [] };
  const live: WebhookTargetRules = { httpsOnly: true, allowedAddresses: [] };
  const allowLoopback: WebhookTargetRules = { httpsOnly: false, allowedAddresses: ['127.0.0.1/32'] };
  // One row per rule: URL, rules, the problem (a pattern) or undefined for accepted.
  const table: [url: string, rules: WebhookTargetRules, problem: RegExp | undefined][] = [
    ['https://shop.example/hooks', test, undefined],
    ['http://shop.example/hooks', test, undefined],
    ['https://shop.example/hooks', live, undefined],
    ['http://shop.example/hooks', live, /https URL on the live system/],
    ['ftp://shop.example/hooks', test, /absolute http or https URL/],
    ['file:///etc/passwd', test, /absolute http or https URL/],
    ['gopher://127.0.0.1:6379/_', test, /absolute http or https URL/],
    ['shop.example/hooks', test, /absolute http or https URL/],
    ['https://user:secret@shop.example/hooks', test, /user name or password/],
    ['https://user@shop.example/hooks', test, /user name or password/],
    ['http://127.0.0.1:8080/hooks', test, /127\.0\.0\.1 is a loopback address/],
    ['http://127.0.0.1:8080/hooks', allowLoopback, undefined],
    ['http://10.0.0.5/hooks', test, /10\.0\.0\.5 is a private address/],
    ['http://10.0.0.5/hooks', allowLoopback, /private address/],
    ['http://169.254.169.254/latest/meta-data/', test, /cloud metadata address/],
    ['http://[::1]/hooks', test, /\[::1\] is a loopback address/],
    ['http://[::ffff:127.0.0.1]/hooks', test, /loopback address/],
    ['http://[fd00:ec2::254]/', test, /cloud metadata address/],
    ['http://2130706433/', test, /127\.0\.0\.1 is a loopback address/],
    ['http://0x7f000001/', test, /127\.0\.0\.1 is a loopback address/],
    ['http://0177.0.0.1/', test, /127\.0\.0\.1 is a loopback address/],
    ['http://127.1/', test, /127\.0\.0\.1 is a loopback address/],
    ['http://8.8.8.8/hooks', test, undefined],
    // A host name is judged at delivery, by what it resolves to then.
    ['http://localhost/hooks', test, undefined],
  ];
  for (const [url, rules, problem] of table) {
    const name = `${url}${rules === live ? ' (live)' : rules === allowLoopback ? ' (127.0.0.1 allowed)' : ''}`;
    it(`${name} → ${problem ? 'refused' : 'accepted'}`, () => {
      const found = webhookUrlProblem(url, rules);
      if (problem) assert.match(found ?? '', problem);
      else assert.equal(found, undefined);
    });
  }
});
