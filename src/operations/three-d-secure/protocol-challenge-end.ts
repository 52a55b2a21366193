import type { AuthenticationData } from '../../connectors/three-d-secure.js';
import { paymentAfterChallengeResult, type AuthenticationEnd } from '../../domain/three-d-secure/outcome-codes.js';
import type { ThreeDSecureOutcome } from '../../observability/observer.js';
import type { ChallengeResult, ProtocolChallengeResume } from '../redirects/open-redirect.js';

/** What a real 3DS server's challenge ends with: the decision, the data the RReq brought, and how it is counted. */
export interface ProtocolChallengeEnd {
  readonly end: AuthenticationEnd;
  /** The RReq's data, kept with the payment; none without an RReq (nothing to invent). */
  readonly data?: AuthenticationData | undefined;
  readonly observed: ThreeDSecureOutcome;
}

function dataOf(result: ChallengeResult, challenge: ProtocolChallengeResume, ids: { readonly dsTransactionId: string; readonly acsTransactionId: string }): AuthenticationData | undefined {
  // Without an eci the RReq gave nothing the payment could carry (a U may come without one).
  if (!result.eci) return undefined;
  return {
    status: result.transStatus,
    eci: result.eci,
    ...(result.authenticationValue ? { verificationId: result.authenticationValue } : {}),
    dsTransactionId: ids.dsTransactionId,
    acsTransactionId: ids.acsTransactionId,
    version: challenge.messageVersion,
    challengeMandatedIndicator: 'Y',
    ...(result.transStatusReason ? { transactionStatusReason: result.transStatusReason } : {}),
  };
}

function observedOf(result: ChallengeResult | undefined, end: AuthenticationEnd): ThreeDSecureOutcome {
  if (!result || result.transStatus === 'U') return 'error';
  return end.kind === 'proceed' ? 'challenge' : 'failed';
}

/**
 * The end of a challenge run by the gateway's own 3DS server, from the RReq its ACS sent
 * (challenge-result.ts); the port's authenticationData() is never asked, since it would invent a
 * result. The CRes that brought the shopper back decides nothing.
 */
export function protocolChallengeEnd(challenge: ProtocolChallengeResume, ids: { readonly dsTransactionId: string; readonly acsTransactionId: string }): ProtocolChallengeEnd {
  const result = challenge.challengeResult;
  const end = paymentAfterChallengeResult(result);
  return { end, data: result ? dataOf(result, challenge, ids) : undefined, observed: observedOf(result, end) };
}
