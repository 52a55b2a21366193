import type { ChallengeChoice, DirectoryAnswer } from './answers.js';

/**
 * Which catalogue code ends a payment (or a standalone authentication) when 3-D Secure does not
 * let it go on. Codes of the "3D Secure" group (^(800\.400\.2|100\.390)) say an authentication ran
 * and failed; codes of 000.400.1xx ("Rejected, 3DS and risk checks") say none could run.
 */
export type AuthenticationEnd =
  | { readonly kind: 'proceed'; readonly withLiabilityShift: boolean }
  | { readonly kind: 'refuse'; readonly code: string };

/** Not an end yet: the shopper must answer the ACS's challenge first. */
export type AwaitChallenge = { readonly kind: 'challenge' };

export const AUTHENTICATION_CODES = {
  /** The directory does not know the card for 3DS v2 (compatibility.md: "Card not enrolled for 3DS v2"). */
  notEnrolled: '000.400.109',
  /** "card not participating/authentication unavailable". */
  notParticipating: '000.400.101',
  /** "Technical Error in 3D system", in the 3D Secure group: the directory failed while authenticating. */
  technicalError: '100.390.112',
  /** "Invalid Payer Authentication in 3DSecure transaction": the shopper failed the challenge. */
  notAuthenticated: '800.400.200',
  /** "Not authenticated because the issuer is rejecting authentication". */
  rejectedByIssuer: '100.390.114',
  /** "Transaction rejected because cardholder authentication unavailable". */
  unavailable: '100.390.107',
  /** "The authentication is cancelled or abandoned". */
  cancelled: '100.390.124',
  /** "Authentication successful (frictionless flow)", a success code (000.400.[12]0 of the success group). */
  frictionlessSuccess: '000.400.110',
} as const;

const PROCEED_WITH_SHIFT: AuthenticationEnd = { kind: 'proceed', withLiabilityShift: true };
const PROCEED_WITHOUT: AuthenticationEnd = { kind: 'proceed', withLiabilityShift: false };
const refuse = (code: string): AuthenticationEnd => ({ kind: 'refuse', code });

/** `required`: the entity's setting demands an authentication (plan.required). */
function unlessRequired(required: boolean, code: string): AuthenticationEnd {
  return required ? refuse(code) : PROCEED_WITHOUT;
}

/**
 * The payment after the directory's answer. Frictionless Y and A shift liability to the issuer
 * (an attempt, ECI 06/01, does too). A technical error refuses whatever the setting: the card is
 * enrolled and its authentication broke, and the test card documents a rejection. A challenge is
 * no end: narrow it away first, or handle the { kind: 'challenge' } this overload returns. A real
 * 3DS server's frictionless N or R refuses like the challenge's; its 'unavailable' (no result)
 * refuses with the technical error only where the setting requires an authentication.
 */
export function paymentAfterDirectory(answer: Exclude<DirectoryAnswer, AwaitChallenge>, required: boolean): AuthenticationEnd;
export function paymentAfterDirectory(answer: DirectoryAnswer, required: boolean): AuthenticationEnd | AwaitChallenge;
export function paymentAfterDirectory(answer: DirectoryAnswer, required: boolean): AuthenticationEnd | AwaitChallenge {
  switch (answer.kind) {
    case 'frictionless':
      return PROCEED_WITH_SHIFT;
    case 'challenge':
      return { kind: 'challenge' };
    case 'not-enrolled':
      return unlessRequired(required, AUTHENTICATION_CODES.notEnrolled);
    case 'not-participating':
      return unlessRequired(required, AUTHENTICATION_CODES.notParticipating);
    case 'error':
      return refuse(AUTHENTICATION_CODES.technicalError);
    case 'failed':
      return refuse(answer.status === 'R' ? AUTHENTICATION_CODES.rejectedByIssuer : AUTHENTICATION_CODES.notAuthenticated);
    case 'unavailable':
      // No result at all (a timeout, an Erro): the entity's setting decides, as for a card that
      // cannot be authenticated; never a success of the authentication.
      return unlessRequired(required, AUTHENTICATION_CODES.technicalError);
  }
}

/** The payment after the shopper's answer on the challenge page; only U may go on, when not required. */
export function paymentAfterChallenge(choice: ChallengeChoice, required: boolean): AuthenticationEnd {
  switch (choice) {
    case 'Y':
      return PROCEED_WITH_SHIFT;
    case 'N':
      return refuse(AUTHENTICATION_CODES.notAuthenticated);
    case 'R':
      return refuse(AUTHENTICATION_CODES.rejectedByIssuer);
    case 'U':
      return unlessRequired(required, AUTHENTICATION_CODES.unavailable);
    case 'cancel':
      return refuse(AUTHENTICATION_CODES.cancelled);
  }
}

/** What a real ACS's RReq said of a challenge (transStatus and the fields the decision reads). */
export interface ChallengeResultFacts {
  readonly transStatus: 'Y' | 'A' | 'N' | 'U' | 'R';
  readonly challengeCancel?: string | undefined;
  readonly eci?: string | undefined;
  readonly authenticationValue?: string | undefined;
}

/**
 * The payment after a real 3DS server's challenge, decided by the ACS's RReq alone (the browser's
 * CRes only says the shopper is back). No RReq, or a Y/A without eci and authenticationValue, is
 * no result: a technical error, never a success. N, R and U decline whatever the setting: the
 * issuer asked for the shopper and did not authenticate them; N with challengeCancel is the
 * shopper's cancel.
 */
export function paymentAfterChallengeResult(result: ChallengeResultFacts | undefined): AuthenticationEnd {
  if (!result) return refuse(AUTHENTICATION_CODES.technicalError);
  switch (result.transStatus) {
    case 'Y':
    case 'A':
      return result.eci && result.authenticationValue ? PROCEED_WITH_SHIFT : refuse(AUTHENTICATION_CODES.technicalError);
    case 'N':
      return refuse(result.challengeCancel ? AUTHENTICATION_CODES.cancelled : AUTHENTICATION_CODES.notAuthenticated);
    case 'R':
      return refuse(AUTHENTICATION_CODES.rejectedByIssuer);
    case 'U':
      return refuse(AUTHENTICATION_CODES.unavailable);
  }
}

/** The success code of a live system; the test system passes its own (000.100.110 for the simulator). */
export const LIVE_SUCCESS_CODE = '000.000.000';

/**
 * The result code of a standalone authentication (POST /v1/threeDSecure):
 * - frictionless: 000.400.110 "Authentication successful (frictionless flow)";
 * - challenge-success: the catalogue has no challenge-specific success code, so the system's
 *   plain success code (000.000.000 live, 000.100.110 on the simulator): pass it as successCode;
 * - an end: a refusal keeps its code; proceeding with a liability shift is the plain success code
 *   (the end does not say whether a challenge came first: pass 'frictionless' for the more
 *   specific 000.400.110); proceeding without one means no authentication took place, so 000.400.101 "authentication
 *   unavailable" (a rejection: a standalone request exists to authenticate). Call
 *   paymentAfterDirectory/-Challenge with required = true for a standalone request and this last
 *   case never arises.
 */
export function standaloneCode(end: 'frictionless' | 'challenge-success' | AuthenticationEnd, successCode: string = LIVE_SUCCESS_CODE): string {
  if (end === 'frictionless') return AUTHENTICATION_CODES.frictionlessSuccess;
  if (end === 'challenge-success') return successCode;
  if (end.kind === 'refuse') return end.code;
  return end.withLiabilityShift ? successCode : AUTHENTICATION_CODES.notParticipating;
}
