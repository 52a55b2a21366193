import type { AuthenticationData, DirectoryAnswer, DirectoryQuery } from './simulator/three-d-secure/directory.js';
import type { RedirectInstruction } from './connector.js';

export type { AuthenticationData, ChallengeChoice, DirectoryAnswer, DirectoryQuery } from './simulator/three-d-secure/directory.js';

/** What the ACS page needs to know to start a challenge. */
export interface ChallengeStart {
  readonly gatewayBaseUrl: string;
  /** The redirect's id: the ACS sends the shopper back with it. */
  readonly reference: string;
  readonly dsTransactionId: string;
  readonly acsTransactionId: string;
  readonly challengeWindowSize?: string | undefined;
}

/**
 * The 3-D Secure server the gateway authenticates with (issue 15): the directory lookup, the
 * challenge redirect, and the authentication data a result carries. The test system has the
 * simulated directory and ACS; the live system has none until a real 3DS server is connected,
 * so there an entity that requires 3-D Secure is refused (000.400.104) rather than simulated.
 */
export interface ThreeDSecureServer {
  readonly id: string;
  lookup(query: DirectoryQuery): Promise<DirectoryAnswer>;
  challengeRedirect(start: ChallengeStart): RedirectInstruction;
  authenticationData(pan: string, status: AuthenticationData['status'], ids: { readonly dsTransactionId: string; readonly acsTransactionId: string }, challenged: boolean): AuthenticationData;
}
