import { isCurrencyCode } from '../iso.js';
import { formatAmount, tryParseAmount } from '../money.js';

/**
 * Whether an entity requires 3-D Secure: the operator's setting, one per entity. It decides only
 * whether a payment may go on *without* a successful authentication; which cards are enrolled is
 * the directory server's answer, never this setting's.
 */
export type ThreeDSecureRequirement =
  | { readonly mode: 'never' } // the service never authenticates
  | { readonly mode: 'if-enrolled' } // default: authenticates enrolled cards; others go on without 3DS
  | { readonly mode: 'always' } // every card PA/DB authenticates; a card that cannot be authenticated is refused
  | { readonly mode: 'above'; readonly amountMinor: bigint; readonly currency: string }; // required above the amount, if-enrolled below

export type RequirementMode = ThreeDSecureRequirement['mode'];

/** Every mode with what it means: the parser, the docs and the command line's help read this. */
export const REQUIREMENT_MODES: readonly { readonly mode: RequirementMode; readonly text: string; readonly meaning: string }[] = [
  { mode: 'never', text: 'never', meaning: 'the service never authenticates; payments go to the acquirer without 3-D Secure' },
  { mode: 'if-enrolled', text: 'if-enrolled', meaning: 'default: enrolled cards authenticate; a card that cannot be authenticated goes on without 3-D Secure' },
  { mode: 'always', text: 'always', meaning: 'every card PA and DB authenticates; a card that cannot be authenticated is refused' },
  { mode: 'above', text: 'above:50.00:EUR', meaning: 'as always for amounts above the threshold (and for any other currency), as if-enrolled at or below it' },
];

export const DEFAULT_THREE_D_SECURE_REQUIREMENT: ThreeDSecureRequirement = Object.freeze({ mode: 'if-enrolled' });

const SIMPLE_MODES: ReadonlyMap<string, ThreeDSecureRequirement> = new Map(
  (['never', 'if-enrolled', 'always'] as const).map((mode) => [mode, Object.freeze({ mode })]),
);

const ABOVE_PREFIX = 'above:';

/** 'never' | 'if-enrolled' | 'always' | 'above:50.00:EUR' (wire amount, ISO 4217 currency). */
export function parseRequirement(text: string): ThreeDSecureRequirement | { readonly error: string } {
  const simple = SIMPLE_MODES.get(text);
  if (simple) return simple;
  if (!text.startsWith(ABOVE_PREFIX)) return { error: 'must be never, if-enrolled, always or above:<amount>:<currency> (e.g. above:50.00:EUR)' };
  const [amount = '', currency = '', ...rest] = text.slice(ABOVE_PREFIX.length).split(':');
  const amountMinor = tryParseAmount(amount);
  if (amountMinor === undefined || rest.length > 0) return { error: 'above needs an amount with up to two decimals, e.g. above:50.00:EUR' };
  if (!isCurrencyCode(currency)) return { error: 'above needs an ISO 4217 currency in upper case, e.g. above:50.00:EUR' };
  return Object.freeze({ mode: 'above', amountMinor, currency });
}

/** The inverse of parseRequirement: 'above' always with two decimals ("above:50.00:EUR"). */
export function formatRequirement(requirement: ThreeDSecureRequirement): string {
  if (requirement.mode !== 'above') return requirement.mode;
  return `${ABOVE_PREFIX}${formatAmount(requirement.amountMinor)}:${requirement.currency}`;
}

export function isParseError(parsed: ThreeDSecureRequirement | { readonly error: string }): parsed is { readonly error: string } {
  return 'error' in parsed;
}

/**
 * Whether a payment of this amount must be authenticated to go on. 'above' is strict: a payment
 * of exactly the threshold is not required. A payment in another currency than the threshold's
 * is required: comparing would need an exchange rate this pure rule does not have, and the safe
 * side of a limit meant to bound unauthenticated exposure is to authenticate.
 */
export function isRequired(requirement: ThreeDSecureRequirement, amountMinor: bigint, currency: string): boolean {
  switch (requirement.mode) {
    case 'never':
    case 'if-enrolled':
      return false;
    case 'always':
      return true;
    case 'above':
      return currency !== requirement.currency || amountMinor > requirement.amountMinor;
  }
}
