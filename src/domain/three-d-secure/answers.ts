/**
 * The answers of a 3-D Secure v2 authentication as the payment rules see them, whoever gave them
 * (the simulator's directory and ACS, or a real 3DS server behind a connector). They live here,
 * below connectors/, so the domain's outcome rules need not import a connector.
 */

/** EMV 3-D Secure transStatus: Y authenticated, A attempted, N not authenticated, U unavailable, R rejected. */
export type AuthenticationStatus = 'Y' | 'A' | 'N' | 'U' | 'R';

/** The directory server's answer to "may this card be authenticated, and how?". */
export type DirectoryAnswer =
  | { readonly kind: 'frictionless'; readonly status: 'Y' | 'A' }
  | { readonly kind: 'challenge' }
  /** Technical error, status U. */
  | { readonly kind: 'error' }
  /** Status N at the directory: the card is not enrolled for 3DS v2. */
  | { readonly kind: 'not-enrolled' }
  /** The issuer does not take part: authentication unavailable. */
  | { readonly kind: 'not-participating' }
  /**
   * A real 3DS server's frictionless refusal (ARes transStatus N or R): the authentication ran and
   * failed without a challenge. The simulated directory never answers it (its N and R come from
   * the challenge page).
   */
  | { readonly kind: 'failed'; readonly status: 'N' | 'R' }
  /**
   * A real 3DS server gave no usable result: the directory timed out, answered an Erro or a
   * malformed ARes, or a transStatus the gateway did not ask for (D, S). Status U, with no
   * authentication data: never a liability shift.
   */
  | { readonly kind: 'unavailable' };

/** What the shopper (or a test) answers on the challenge page: a transStatus, or cancelling it. */
export type ChallengeChoice = 'Y' | 'N' | 'U' | 'R' | 'cancel';
