// Placeholder: replaced by the 3-D Secure rules branch.
import { isRequired, type ThreeDSecureRequirement } from './requirement.js';
export interface AuthenticationFacts {
  readonly paymentType: 'PA' | 'DB' | 'CD';
  readonly methodKind: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly standingInstruction?: { readonly mode?: 'INITIAL' | 'REPEATED'; readonly source?: 'CIT' | 'MIT' } | undefined;
  readonly externalResult: boolean;
  readonly threeDSecureFieldsSent: readonly string[];
  readonly challengeIndicator?: string | undefined;
  readonly exemptionFlag?: string | undefined;
  readonly forcedEnrolled: boolean;
  readonly forcedFlow?: 'challenge' | 'frictionless' | undefined;
}
export type AuthenticationPlan =
  | { readonly kind: 'none'; readonly reason: 'policy-never' | 'not-a-card' | 'credit' | 'merchant-initiated' }
  | { readonly kind: 'passthrough' }
  | { readonly kind: 'authenticate'; readonly required: boolean; readonly challengeRequested: boolean; readonly exemptionFlag?: string; readonly challengeIndicator?: string };
export function planAuthentication(requirement: ThreeDSecureRequirement, facts: AuthenticationFacts): AuthenticationPlan {
  if (facts.externalResult) return { kind: 'passthrough' };
  if (requirement.mode === 'never') return { kind: 'none', reason: 'policy-never' };
  if (facts.methodKind !== 'card') return { kind: 'none', reason: 'not-a-card' };
  if (facts.paymentType === 'CD') return { kind: 'none', reason: 'credit' };
  if (facts.standingInstruction?.source === 'MIT') return { kind: 'none', reason: 'merchant-initiated' };
  return { kind: 'authenticate', required: isRequired(requirement, facts.amountMinor, facts.currency), challengeRequested: facts.challengeIndicator === '04' };
}
export function standingInstructionViolations(facts: AuthenticationFacts): readonly { readonly name: string; readonly code: string; readonly message: string }[] {
  if (facts.standingInstruction?.mode !== 'REPEATED' || facts.standingInstruction.source !== 'MIT') return [];
  return facts.threeDSecureFieldsSent.map((name) => ({ name, code: '100.390.121', message: 'must not be sent with a REPEATED MIT' }));
}
