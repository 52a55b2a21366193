import type { FiredRule } from '../fired-rule.js';
import type { ListKind, RiskFacts } from '../facts.js';
import { DEFAULT_POINTS } from '../rule-set.js';

/** The blacklist group (800.300.*) of the result catalogue, one code per kind of entry. */
export const BLACKLIST_CODES: Readonly<Record<ListKind, string>> = {
  card: '800.300.101',
  iban: '800.300.101',
  bin: '800.300.401',
  email: '800.300.200',
  ip: '800.300.301',
  country: '800.300.102',
};

/** Points a whitelist entry takes off: trust lowers the score as suspicion raises it. */
export const WHITELIST_POINTS = -500;

/**
 * A blacklisted card, BIN, IBAN, e-mail, IP or country rejects, whatever else the payment is;
 * one fired rule per kind matched, in the fixed order of BLACKLIST_CODES (card first).
 */
export function blacklistRules(facts: RiskFacts): FiredRule[] {
  const kinds = new Set(facts.listHits.filter((h) => h.list === 'black').map((h) => h.kind));
  return (Object.keys(BLACKLIST_CODES) as ListKind[])
    .filter((kind) => kinds.has(kind))
    .map((kind) => ({ rule: `blacklist.${kind}`, action: 'reject' as const, points: DEFAULT_POINTS.reject, code: BLACKLIST_CODES[kind] }));
}

/** A whitelisted card, e-mail, IP … bypasses the velocity rules (and lowers the score). */
export function whitelistRules(facts: RiskFacts): FiredRule[] {
  const kinds = [...new Set(facts.listHits.filter((h) => h.list === 'white').map((h) => h.kind))];
  return kinds.map((kind) => ({ rule: `whitelist.${kind}`, action: 'score' as const, points: WHITELIST_POINTS, code: '' }));
}
