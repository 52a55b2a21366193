import type { AResMessage } from '../emv3ds/types.js';
import type { AuthenticationData, ChallengeSession, LookupAnswer } from '../three-d-secure.js';

/**
 * What an ARes becomes for the payment: the rules for each transStatus (EMV 3DS 2.2, Table A.1),
 * as data. Pure: the connector has already checked the ARes with the message layer and that it
 * answers its AReq.
 *
 * | transStatus | meaning | answer |
 * |---|---|---|
 * | Y | authenticated | frictionless Y, the ARes's eci, authenticationValue, ids |
 * | A | attempted | frictionless A, likewise |
 * | N | not authenticated | failed N: refused (800.400.200) |
 * | R | rejected by the issuer | failed R: refused (100.390.114) |
 * | U, reason 13 | cardholder not enrolled | not-enrolled (000.400.109 where required) |
 * | U, another reason | could not be performed | not-participating (000.400.101 where required) |
 * | I | informational only (no authentication) | not-participating |
 * | C, with acsURL (browser) | challenge | challenge: the browser posts the CReq to acsURL; the RReq brings the result |
 * | C, with acsSignedContent (app) | challenge | challenge: the SDK runs it from acsSignedContent; the RReq brings the result |
 * | C, without either | challenge nowhere | unavailable |
 * | C to a 3RI AReq | a challenge without a shopper: a protocol error | unavailable |
 * | D, S | decoupled, SPC: never asked for | unavailable |
 */

export const NOT_ENROLLED_REASON = '13';

/** The ARes's data as the payment stores it; callers make sure the ARes has an eci. */
export function authenticationOf(ares: AResMessage & { readonly eci: string }, status: AuthenticationData['status']): AuthenticationData {
  return {
    status,
    eci: ares.eci,
    ...(ares.authenticationValue !== undefined ? { verificationId: ares.authenticationValue } : {}),
    dsTransactionId: ares.dsTransID,
    acsTransactionId: ares.acsTransID,
    version: ares.messageVersion,
    challengeMandatedIndicator: 'N',
    ...(ares.transStatusReason !== undefined ? { transactionStatusReason: ares.transStatusReason } : {}),
  };
}

/**
 * Y and A without authenticationValue or eci are no authentication the acquirer can use: the
 * spec requires both for payments, and a success without them would be a success without result.
 */
function frictionless(ares: AResMessage, status: 'Y' | 'A'): LookupAnswer {
  if (!ares.authenticationValue || !ares.eci) return { kind: 'unavailable' };
  return { kind: 'frictionless', status, authentication: authenticationOf({ ...ares, eci: ares.eci }, status) };
}

/** A refusal's data, kept with the declined payment; without an eci the ARes gave none worth keeping. */
function refusalData(ares: AResMessage, status: 'N' | 'R' | 'U'): { readonly authentication?: AuthenticationData } {
  return ares.eci ? { authentication: authenticationOf({ ...ares, eci: ares.eci }, status) } : {};
}

/**
 * The transaction a challenge runs in. The browser goes to acsURL; the app's SDK starts from
 * acsSignedContent (whose payload names the ACS's URL) and the ACS's reference number. A 3RI has
 * no shopper to challenge: EMV 3DS allows no C to deviceChannel 03, so such an ARes is no result.
 */
function challenge(ares: AResMessage, channel: AReqChannel): LookupAnswer {
  const ids = { threeDSServerTransID: ares.threeDSServerTransID, acsTransID: ares.acsTransID, dsTransID: ares.dsTransID, messageVersion: ares.messageVersion };
  if (channel === '03') return { kind: 'unavailable' };
  if (channel === '01') {
    if (!ares.acsSignedContent) return { kind: 'unavailable' };
    const app = { acsSignedContent: ares.acsSignedContent, acsReferenceNumber: ares.acsReferenceNumber, ...(ares.sdkTransID ? { sdkTransID: ares.sdkTransID } : {}) };
    const session: ChallengeSession = { ...ids, acsURL: '', app };
    return { kind: 'challenge', challenge: session };
  }
  if (!ares.acsURL) return { kind: 'unavailable' };
  return { kind: 'challenge', challenge: { ...ids, acsURL: ares.acsURL } };
}

/** The AReq's deviceChannel: 01 app, 02 browser, 03 3RI. */
export type AReqChannel = '01' | '02' | '03';

export function answerOfARes(ares: AResMessage, channel: AReqChannel = '02'): LookupAnswer {
  switch (ares.transStatus) {
    case 'C':
      return challenge(ares, channel);
    case 'Y':
    case 'A':
      return frictionless(ares, ares.transStatus);
    case 'N':
    case 'R':
      return { kind: 'failed', status: ares.transStatus, ...refusalData(ares, ares.transStatus) };
    case 'U':
      return ares.transStatusReason === NOT_ENROLLED_REASON
        ? { kind: 'not-enrolled', ...refusalData(ares, 'U') }
        : { kind: 'not-participating', ...refusalData(ares, 'U') };
    case 'I':
      return { kind: 'not-participating' };
    default:
      return { kind: 'unavailable' };
  }
}
