// Placeholder: replaced by the 3-D Secure rules branch.
export type ThreeDSecureRequirement =
  | { readonly mode: 'never' }
  | { readonly mode: 'if-enrolled' }
  | { readonly mode: 'always' }
  | { readonly mode: 'above'; readonly amountMinor: bigint; readonly currency: string };
export const DEFAULT_THREE_D_SECURE_REQUIREMENT: ThreeDSecureRequirement = { mode: 'if-enrolled' };
export function parseRequirement(text: string): ThreeDSecureRequirement | { readonly error: string } {
  if (text === 'never' || text === 'if-enrolled' || text === 'always') return { mode: text };
  return { error: 'unknown' };
}
export function formatRequirement(requirement: ThreeDSecureRequirement): string {
  return requirement.mode;
}
export function isRequired(requirement: ThreeDSecureRequirement, _amountMinor: bigint, _currency: string): boolean {
  return requirement.mode === 'always';
}
