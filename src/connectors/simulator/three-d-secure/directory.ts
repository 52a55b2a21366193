// Placeholder: replaced by the 3-D Secure rules branch.
import { createHash } from 'node:crypto';
export type DirectoryAnswer =
  | { readonly kind: 'frictionless'; readonly status: 'Y' | 'A' }
  | { readonly kind: 'challenge' }
  | { readonly kind: 'error' }
  | { readonly kind: 'not-enrolled' }
  | { readonly kind: 'not-participating' };
export interface DirectoryQuery { readonly pan: string; readonly forcedEnrolled: boolean; readonly forcedFlow?: 'challenge' | 'frictionless' | undefined; readonly challengeRequested: boolean; readonly exemptionFlag?: string | undefined }
const FRICTIONLESS: Record<string, 'Y' | 'A'> = { '4200000000000091': 'Y', '4200000000000109': 'A', '4200000000000026': 'Y', '4200000000000059': 'A', '5200000000000007': 'Y', '5200000000000023': 'A' };
const CHALLENGE = ['4200000000000042', '4200000000000067', '4200000000000018', '4200000000000075'];
export function askDirectory(query: DirectoryQuery): DirectoryAnswer {
  if (query.pan === '4012001037461114') return { kind: 'error' };
  if (query.pan === '4532497088771651') return { kind: 'not-participating' };
  const enrolled = query.forcedEnrolled || FRICTIONLESS[query.pan] !== undefined || CHALLENGE.includes(query.pan);
  if (!enrolled) return { kind: 'not-enrolled' };
  if (query.forcedFlow === 'challenge' || query.challengeRequested || (CHALLENGE.includes(query.pan) && query.forcedFlow !== 'frictionless')) return { kind: 'challenge' };
  return { kind: 'frictionless', status: FRICTIONLESS[query.pan] ?? 'Y' };
}
export type ChallengeChoice = 'Y' | 'N' | 'U' | 'R' | 'cancel';
export const CHALLENGE_CHOICES: readonly { readonly value: ChallengeChoice; readonly description: string }[] = [
  { value: 'Y', description: 'authenticated' }, { value: 'N', description: 'not authenticated' }, { value: 'U', description: 'unavailable' }, { value: 'R', description: 'rejected' }, { value: 'cancel', description: 'cancelled' },
];
export interface AuthenticationData { readonly status: 'Y' | 'A' | 'N' | 'U' | 'R'; readonly eci: string; readonly verificationId?: string; readonly dsTransactionId: string; readonly acsTransactionId: string; readonly version: string; readonly challengeMandatedIndicator?: 'Y' | 'N'; readonly transactionStatusReason?: string }
export function authenticationData(pan: string, status: AuthenticationData['status'], ids: { readonly dsTransactionId: string; readonly acsTransactionId: string }, _challenged: boolean): AuthenticationData {
  const master = pan.startsWith('5');
  const eci = status === 'Y' ? (master ? '02' : '05') : status === 'A' ? (master ? '01' : '06') : master ? '00' : '07';
  const cavv = createHash('sha256').update(ids.dsTransactionId).digest().subarray(0, 20).toString('base64');
  return { status, eci, ...(status === 'Y' || status === 'A' ? { verificationId: cavv } : {}), dsTransactionId: ids.dsTransactionId, acsTransactionId: ids.acsTransactionId, version: '2.2.0' };
}
