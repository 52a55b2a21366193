import type { ChallengeStart, ThreeDSecureServer } from '../../three-d-secure.js';
import type { RedirectInstruction } from '../../connector.js';
import { askDirectory, authenticationData } from './directory.js';

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
    messageVersion: '2.2.0',
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

/** The test system's directory server and ACS (docs/simulator.md, "3-D Secure"). */
export function createSimulatedThreeDSecureServer(): ThreeDSecureServer {
  return {
    id: 'simulated-3ds',
    lookup: async (query) => askDirectory(query),
    challengeRedirect: simulatedChallengeRedirect,
    authenticationData,
  };
}
