import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ListHit } from '../../../src/domain/risk/facts.js';
import { blacklistRules, whitelistRules } from '../../../src/domain/risk/rules/lists.js';
import { facts } from './fixtures.js';

test('blacklists: one rule per kind matched, card first, each with its 800.300.* code', () => {
  const cases: [ListHit[], [string, string][]][] = [
    [[], []],
    [[{ list: 'black', kind: 'card' }], [['blacklist.card', '800.300.101']]],
    [[{ list: 'black', kind: 'iban' }], [['blacklist.iban', '800.300.101']]],
    [[{ list: 'black', kind: 'bin' }], [['blacklist.bin', '800.300.401']]],
    [[{ list: 'black', kind: 'email' }], [['blacklist.email', '800.300.200']]],
    [[{ list: 'black', kind: 'ip' }], [['blacklist.ip', '800.300.301']]],
    [[{ list: 'black', kind: 'country', source: 'billing' }, { list: 'black', kind: 'country', source: 'bin' }], [['blacklist.country', '800.300.102']]],
    [[{ list: 'black', kind: 'ip' }, { list: 'black', kind: 'card' }], [['blacklist.card', '800.300.101'], ['blacklist.ip', '800.300.301']]],
    [[{ list: 'white', kind: 'card' }], []],
  ];
  for (const [hits, expected] of cases) {
    const fired = blacklistRules(facts({ listHits: hits }));
    assert.deepEqual(fired.map((r) => [r.rule, r.code]), expected, JSON.stringify(hits));
    assert.ok(fired.every((r) => r.action === 'reject'));
  }
});

test('whitelists: a negative score per kind matched, never a decision', () => {
  const cases: [ListHit[], string[]][] = [
    [[], []],
    [[{ list: 'white', kind: 'email' }], ['whitelist.email']],
    [[{ list: 'white', kind: 'card' }, { list: 'white', kind: 'ip' }], ['whitelist.card', 'whitelist.ip']],
    [[{ list: 'black', kind: 'email' }], []],
  ];
  for (const [hits, expected] of cases) {
    const fired = whitelistRules(facts({ listHits: hits }));
    assert.deepEqual(fired.map((r) => r.rule), expected);
    assert.ok(fired.every((r) => r.action === 'score' && r.points < 0));
  }
});
