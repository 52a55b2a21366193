// Placeholder: replaced by the 3-D Secure rules branch.
import type { ChallengeChoice, DirectoryAnswer } from '../../connectors/simulator/three-d-secure/directory.js';
export type AuthenticationEnd = { readonly kind: 'proceed'; readonly withLiabilityShift: boolean } | { readonly kind: 'refuse'; readonly code: string };
export function paymentAfterDirectory(answer: DirectoryAnswer, required: boolean): AuthenticationEnd {
  if (answer.kind === 'frictionless') return { kind: 'proceed', withLiabilityShift: true };
  if (answer.kind === 'error') return { kind: 'refuse', code: '100.390.112' };
  if (answer.kind === 'not-enrolled') return required ? { kind: 'refuse', code: '000.400.109' } : { kind: 'proceed', withLiabilityShift: false };
  if (answer.kind === 'not-participating') return required ? { kind: 'refuse', code: '000.400.101' } : { kind: 'proceed', withLiabilityShift: false };
  return { kind: 'proceed', withLiabilityShift: true };
}
export function paymentAfterChallenge(choice: ChallengeChoice, required: boolean): AuthenticationEnd {
  switch (choice) {
    case 'Y': return { kind: 'proceed', withLiabilityShift: true };
    case 'N': return { kind: 'refuse', code: '800.400.200' };
    case 'R': return { kind: 'refuse', code: '100.390.114' };
    case 'U': return required ? { kind: 'refuse', code: '100.390.107' } : { kind: 'proceed', withLiabilityShift: false };
    default: return { kind: 'refuse', code: '100.390.124' };
  }
}
export function standaloneCode(end: 'frictionless' | 'challenge-success' | AuthenticationEnd): string {
  if (end === 'frictionless' || end === 'challenge-success') return '000.400.110';
  return end.kind === 'refuse' ? end.code : '000.400.110';
}
