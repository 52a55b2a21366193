import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LIST_KINDS } from '../../../src/domain/risk/facts.js';
import { listProbesOf } from '../../../src/operations/risk/payment-facts.js';
import { facts } from './fixtures.js';
import { canonicalEmail } from '../../../src/domain/risk/canonical-email.js';

describe('the list look-ups of a payment', () => {
  const payment = facts({ email: 'jane+shop@example.com', ip: '192.0.2.1', billingCountry: 'DE', shippingCountry: 'FR', binCountry: 'US' });
  const cases: { lists: string[]; probes: string[] }[] = [
    { lists: [], probes: [] },
    { lists: ['email'], probes: [`email:${canonicalEmail('jane@example.com')}`] },
    { lists: ['iban'], probes: [] }, // a card payment has no IBAN to look up
    { lists: ['country'], probes: ['country:DE:billing', 'country:FR:shipping', 'country:US:bin'] },
    { lists: [...LIST_KINDS], probes: [`card:${'f'.repeat(64)}`, 'bin:420000', `email:${canonicalEmail('jane@example.com')}`, 'ip:192.0.2.1', 'country:DE:billing', 'country:FR:shipping', 'country:US:bin'] },
  ];
  for (const c of cases) {
    it(`lists holding ${c.lists.join(', ') || 'nothing'}: ${c.probes.length} look-ups`, () => {
      const probes = listProbesOf(payment, new Set(c.lists)).map((p) => [p.kind, p.value, p.source].filter(Boolean).join(':'));
      assert.deepEqual(probes, c.probes);
    });
  }
});
