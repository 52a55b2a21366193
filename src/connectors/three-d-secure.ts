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
 * What the mobile SDK needs to run an app-based challenge itself (EMV 3-D Secure ARes fields for
 * deviceChannel 01): no browser redirect; the SDK shows the ACS's native screens.
 */
export type AppChallenge = Readonly<Record<string, string>>;

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
  /** The app channel's challenge: the data the SDK starts its challenge with, in the payment answer's threeDSecure block. */
  appChallenge(start: ChallengeStart): AppChallenge;
  authenticationData(pan: string, status: AuthenticationData['status'], ids: { readonly dsTransactionId: string; readonly acsTransactionId: string }, challenged: boolean): AuthenticationData;
}
