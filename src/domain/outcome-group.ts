/**
 * The outcome group of a result code, for counting payments the way an operator reads them. The
 * patterns are OPPWA's published result-code groups (compatibility.md) folded into the few an
 * alert can watch: success (with review), pending, declined by the bank or acquirer, refused by
 * validation (format, configuration, reference, account, amount, …), refused by risk (blacklist,
 * risk rules, external risk), refused or failed in 3-D Secure, and errors (communication, system).
 * First match wins, in the order below.
 */
export type OutcomeGroup = 'success' | 'pending' | 'declined' | 'validation' | 'risk' | 'three_d_secure' | 'error';

const GROUPS: ReadonlyArray<readonly [OutcomeGroup, RegExp]> = [
  ['success', /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0|000\.400\.0[^3]|000\.400\.100)/],
  ['pending', /^(000\.200|800\.400\.5|100\.400\.500)/],
  ['three_d_secure', /^(000\.400\.[1][0-9][1-9]|000\.400\.2|800\.400\.2|100\.390)/],
  ['error', /^(900\.|000\.400\.030|800\.[56]|999\.|600\.1|800\.800\.[84])/],
  ['declined', /^(800\.[17]00|800\.800\.[123]|100\.39[765])/],
  ['risk', /^(100\.400|100\.38|100\.370\.100|100\.370\.11|800\.400\.1|800\.[32]|800\.1[123456]0)/],
];

export function outcomeGroupOf(resultCode: string): OutcomeGroup {
  for (const [group, pattern] of GROUPS) if (pattern.test(resultCode)) return group;
  // What is left is a request the gateway refused before anyone decided on it: format,
  // configuration, reference, registration, job, account and amount validation.
  return 'validation';
}
