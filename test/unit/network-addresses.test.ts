import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAddressOrBlock, isLoopbackHost } from '../../src/config/network-addresses.js';

describe('isAddressOrBlock (TRUSTED_PROXIES entries)', () => {
  const cases: [string, boolean][] = [
    ['10.0.0.1', true],
    ['10.0.0.0/8', true],
    ['0.0.0.0/0', true],
    ['10.0.0.0/32', true],
    ['10.0.0.0/33', false],
    ['10.0.0.0/', false],
    ['10.0.0.0/8/8', false],
    ['10.0.0.0/x', false],
    ['10.0.0.256', false],
    ['::1', true],
    ['2001:db8::/32', true],
    ['2001:db8::/128', true],
    ['2001:db8::/129', false],
    ['proxy.internal', false],
    ['loopback', false],
    ['', false],
  ];
  for (const [entry, expected] of cases) {
    it(`${JSON.stringify(entry)} → ${expected}`, () => assert.equal(isAddressOrBlock(entry), expected));
  }
});

describe('isLoopbackHost (the admin listener takes plain HTTP only there on the live system)', () => {
  const cases: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.5', false],
    ['128.0.0.1', false],
    ['127.example.com', false],
  ];
  for (const [host, expected] of cases) {
    it(`${host} → ${expected}`, () => assert.equal(isLoopbackHost(host), expected));
  }
});
