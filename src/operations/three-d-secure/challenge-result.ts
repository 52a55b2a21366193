import { readMessage } from '../../connectors/emv3ds/codec.js';
import { erroFor, protocolError, type ProtocolError } from '../../connectors/emv3ds/errors.js';
import type { JsonObject } from '../../connectors/emv3ds/formats.js';
import type { ErroMessage, RReqMessage, RResMessage } from '../../connectors/emv3ds/types.js';
import { matchTransaction } from '../../connectors/emv3ds/validate.js';
import { findRedirectByServerTransId, recordChallengeResult } from '../../storage/repositories/shopper-redirects.js';
import { expiresAtAfterResult } from '../../domain/three-d-secure/challenge-deadline.js';
import type { PaymentDeps } from '../deps.js';
import { completeRedirect } from '../redirects/complete-redirect.js';
import { protocolChallengeOf, type ChallengeResult, type ChallengeResume } from '../redirects/open-redirect.js';

/**
 * POST /v1/threeDSecure/results, the threeDSServerURL of the gateway's AReqs: the ACS's RReq with
 * the result of a challenge. It must be well formed (the message layer; an Erro with the
 * protocol's code otherwise), name a challenge this gateway started (301 otherwise: a foreign
 * transaction), and be the first result of a challenge still open (305 otherwise: a replayed
 * RReq, or one after the shopper came back or the challenge expired). Only then is the result
 * kept with the redirect, and the RRes answers. A refused RReq changes nothing.
 *
 * An app challenge (deviceChannel 01) has no browser that brings a final CRes back: its SDK gets
 * the CRes from the ACS. So its RReq also ends it: the payment goes on to the acquirer (or is
 * declined) before the RRes answers, and the merchant reads the outcome with the status call.
 */

/** Why an RReq was answered as it was: for the request's log line (never the message itself). */
export type ResultOutcome = 'recorded' | 'recorded-payment-not-completed' | 'malformed' | 'foreign' | 'replayed' | 'ended';

export interface ResultAnswer {
  readonly message: RResMessage | ErroMessage;
  readonly outcome: ResultOutcome;
  readonly threeDSServerTransID?: string | undefined;
}

/** The RReq's result as the redirect keeps it: the status and what the acquirer needs, nothing else of the message. */
function resultOf(rreq: RReqMessage, now: Date): ChallengeResult {
  return {
    transStatus: rreq.transStatus,
    ...(rreq.transStatusReason !== undefined ? { transStatusReason: rreq.transStatusReason } : {}),
    ...(rreq.eci !== undefined ? { eci: rreq.eci } : {}),
    ...(rreq.authenticationValue !== undefined ? { authenticationValue: rreq.authenticationValue } : {}),
    ...(rreq.challengeCancel !== undefined ? { challengeCancel: rreq.challengeCancel } : {}),
    receivedAt: now.toISOString(),
  };
}

function refused(error: ProtocolError, outcome: ResultOutcome, threeDSServerTransID?: string): ResultAnswer {
  return { message: erroFor(error, 'S'), outcome, threeDSServerTransID };
}

export async function receiveChallengeResult(deps: PaymentDeps, text: string): Promise<ResultAnswer> {
  const read = readMessage(text, 'RReq');
  if (!read.ok) return refused(read.error, 'malformed');
  const rreq = read.message;
  const transId = rreq.threeDSServerTransID.toLowerCase();
  const redirect = await findRedirectByServerTransId(deps.storage, transId);
  const challenge = redirect ? protocolChallengeOf(redirect.resume) : undefined;
  if (!redirect || !challenge) return refused(protocolError('301', 'threeDSServerTransID', rreq), 'foreign', transId);
  // A payment's resume and a standalone authentication's both keep the ARes's ids under these names.
  const resume = redirect.resume as unknown as Pick<ChallengeResume, 'dsTransactionId' | 'acsTransactionId'>;
  const mismatch = matchTransaction(rreq as unknown as JsonObject, { threeDSServerTransID: challenge.threeDSServerTransID, acsTransID: resume.acsTransactionId, dsTransID: resume.dsTransactionId });
  if (mismatch) return refused(mismatch, 'foreign', transId);
  if (rreq.messageVersion !== challenge.messageVersion) return refused(protocolError('305', 'messageVersion', rreq), 'foreign', transId);
  const now = deps.clock.now();
  // An RReq after THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES finds the challenge expired (305, 'ended').
  if (!(await recordChallengeResult(deps.storage, redirect.id, resultOf(rreq, now), now, expiresAtAfterResult(redirect.createdAt, deps)))) {
    const outcome = challenge.challengeResult ? 'replayed' : 'ended';
    return refused(protocolError('305', outcome === 'replayed' ? 'the challenge has its result already' : 'the challenge has ended', rreq), outcome, transId);
  }
  const completed = challenge.channel === 'app' ? await endAppChallenge(deps, redirect.id) : true;
  const rres: RResMessage = {
    messageType: 'RRes', messageVersion: rreq.messageVersion,
    threeDSServerTransID: rreq.threeDSServerTransID, acsTransID: rreq.acsTransID, dsTransID: rreq.dsTransID,
    resultsStatus: '01',
  };
  return { message: rres, outcome: completed ? 'recorded' : 'recorded-payment-not-completed', threeDSServerTransID: transId };
}

/**
 * The app challenge's end, from its RReq (recorded just before). The result is kept whatever
 * happens here: a failure to complete is logged by the route (its outcome) and the redirect stays open until it expires
 * (the payment pending, as any other whose completion failed), never a success without result.
 */
async function endAppChallenge(deps: PaymentDeps, redirectId: string): Promise<boolean> {
  try {
    await completeRedirect(deps, { redirectId, returned: {}, purpose: 'challenge', via: 'notification' });
    return true;
  } catch {
    return false;
  }
}
