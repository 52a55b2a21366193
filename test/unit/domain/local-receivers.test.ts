import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isListedLocalReceiver, parseLocalReceivers } from '../../../src/domain/local-receivers.js';
import { webhookUrlProblem, withLocalReceivers, type WebhookTargetRules } from '../../../src/domain/webhook-url.js';

describe('local receivers: loopback hosts with a port, nothing else', () => {
  const parses: readonly (readonly [string, readonly string[] | RegExp])[] = [
    ['', []],
    ['localhost:4242', ['localhost:4242']],
    [' LOCALHOST:4242 , 127.0.0.1:3000,[::1]:80, localhost:4242', ['localhost:4242', '127.0.0.1:3000', '[::1]:80']],
    ['127.0.0.2:8080', ['127.0.0.2:8080']],
    ['localhost', /not a loopback host with a port/],
    ['shop.example:80', /not a loopback host with a port/],
    ['10.0.0.1:80', /not a loopback host with a port/],
    ['169.254.169.254:80', /not a loopback host with a port/],
    ['[::ffff:10.0.0.1]:80', /not a loopback host with a port/],
    ['localhost:0', /not a loopback host with a port/],
    ['localhost:65536', /not a loopback host with a port/],
    [Array.from({ length: 11 }, (_, i) => `localhost:${4000 + i}`).join(','), /at most 10/],
  ];
  for (const [text, expected] of parses) {
    it(`parses ${JSON.stringify(text).slice(0, 50)}`, () => {
      const parsed = parseLocalReceivers(text);
      if (Array.isArray(expected)) assert.deepEqual(parsed, { ok: true, receivers: expected });
      else assert.ok(!parsed.ok && (expected as RegExp).test(parsed.message), JSON.stringify(parsed));
    });
  }

  const matches: readonly (readonly [string, boolean])[] = [
    ['http://localhost:4242/hook', true],
    ['http://127.0.0.1:4242/hook', true],
    ['http://[::1]:4242/hook', true],
    ['http://[::ffff:127.0.0.1]:4242/hook', true],
    ['http://2130706433:4242/hook', true],
    ['https://localhost:4242/hook', true],
    ['http://localhost:4243/hook', false],
    ['http://localhost/hook', false],
    ['http://10.0.0.1:4242/hook', false],
    ['http://shop.example:4242/hook', false],
  ];
  for (const [url, expected] of matches) {
    it(`${url} ${expected ? 'is' : 'is not'} the receiver localhost:4242`, () => {
      assert.equal(isListedLocalReceiver(new URL(url), ['localhost:4242']), expected);
    });
  }

  it('only the test system honours them, and only for the entity whose list it is', () => {
    const test: WebhookTargetRules = { httpsOnly: false, allowedAddresses: [], localReceiversAllowed: true };
    const live: WebhookTargetRules = { httpsOnly: true, allowedAddresses: [], localReceiversAllowed: false };
    const url = 'http://127.0.0.1:4242/hook';
    assert.equal(webhookUrlProblem(url, withLocalReceivers(test, ['localhost:4242'])), undefined);
    assert.match(webhookUrlProblem(url, test) ?? '', /loopback address/, 'without the list');
    assert.match(webhookUrlProblem(url, withLocalReceivers(live, ['localhost:4242'])) ?? '', /https URL on the live system/);
    assert.match(webhookUrlProblem('https://127.0.0.1:4242/hook', withLocalReceivers(live, ['localhost:4242'])) ?? '', /loopback address/);
  });
});
