import type { AppChallenge, ChallengeStart, ThreeDSecureServer } from '../../three-d-secure.js';
import type { RedirectInstruction } from '../../connector.js';
import { askDirectory, authenticationData, THREE_D_SECURE_VERSION } from './directory.js';

/** Where the gateway serves the simulated ACS challenge page of a redirect. */
export const ACS_PAGE_PATH = '/v1/simulator/acs';

/**
 * The challenge redirect as EMV 3-D Secure 2 has it: the browser POSTs `creq` (the base64url
 * JSON challenge request) and `threeDSSessionData` to the ACS, which answers with its page.
 */
export function simulatedChallengeRedirect(start: ChallengeStart): RedirectInstruction {
  const creq = {
    threeDSServerTransID: start.dsTransactionId,
    acsTransID: start.acsTransactionId,
    messageVersion: THREE_D_SECURE_VERSION,
    messageType: 'CReq',
    challengeWindowSize: start.challengeWindowSize ?? '05',
  };
  return {
    url: `${start.gatewayBaseUrl}${ACS_PAGE_PATH}/${start.reference}`,
    method: 'POST',
    parameters: [
      { name: 'creq', value: Buffer.from(JSON.stringify(creq)).toString('base64url') },
      { name: 'threeDSSessionData', value: Buffer.from(start.reference).toString('base64url') },
    ],
  };
}

/** The simulated ACS's reference number (EMV acsReferenceNumber: assigned to an ACS by EMVCo). */
export const SIMULATED_ACS_REFERENCE_NUMBER = 'SIMULATED-ACS-REF-3DS2';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The app channel's challenge as an ARes for deviceChannel 01 carries it: transStatus C and
 * acsSignedContent, which tells the SDK where the ACS is. A real ACS signs it (JWS, with its
 * ephemeral key for the SDK's secure channel); the simulator's is the same compact form with
 * alg "none" and no signature, and its acsURL is the simulated ACS endpoint, where the SDK's
 * challenge answers (`outcome`) are posted as the browser page's buttons are.
 */
export function simulatedAppChallenge(start: ChallengeStart): AppChallenge {
  const content = {
    acsURL: `${start.gatewayBaseUrl}${ACS_PAGE_PATH}/${start.reference}`,
    acsTransID: start.acsTransactionId,
    threeDSServerTransID: start.dsTransactionId,
    messageVersion: THREE_D_SECURE_VERSION,
  };
  return {
    authenticationStatus: 'C',
    version: THREE_D_SECURE_VERSION,
    dsTransactionId: start.dsTransactionId,
    acsTransactionId: start.acsTransactionId,
    acsReferenceNumber: SIMULATED_ACS_REFERENCE_NUMBER,
    acsSignedContent: `${base64url({ alg: 'none' })}.${base64url(content)}.`,
  };
}

/** The test system's directory server and ACS (docs/simulator.md, "3-D Secure"). */
export function createSimulatedThreeDSecureServer(): ThreeDSecureServer {
  return {
    id: 'simulated-3ds',
    lookup: async (query) => askDirectory(query),
    challengeRedirect: simulatedChallengeRedirect,
    appChallenge: simulatedAppChallenge,
    authenticationData,
  };
}
