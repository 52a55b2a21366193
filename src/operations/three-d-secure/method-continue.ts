import type { CardDetails } from '../../connectors/connector.js';
import { CHALLENGE_START_PATH } from '../../connectors/emv3ds-server/server.js';
import type { DirectoryLookupAnswer, ThreeDSecureServer } from '../../connectors/three-d-secure.js';
import { AUTHENTICATION_CODES, paymentAfterDirectory, type AuthenticationEnd } from '../../domain/three-d-secure/outcome-codes.js';
import { claimMethod, claimRedirect, findRedirect, startChallengeAfterMethod, type ShopperRedirect } from '../../storage/repositories/shopper-redirects.js';
import { findTransactionById } from '../../storage/repositories/transactions.js';
import type { PaymentDeps } from '../deps.js';
import { endOf, goOn, resultLocationOf, settleCompletion, shopUrlOf, type CompletionResult } from '../redirects/complete-redirect.js';
import { protocolChallengeOf, sealedMethodContext, type ChallengeResume } from '../redirects/open-redirect.js';
import { methodOf, queryAfterMethod, type MethodRedirectResume, type MethodResume } from './method-open.js';
import { directoryOutcome } from './observe-authentication.js';
import { challengeExpiresAt } from '../../domain/three-d-secure/challenge-deadline.js';

/**
 * POST /v1/threeDSecure/method/{id}/continue: the method page goes on (the ACS notified, or the
 * timeout passed). The method is taken in one conditional UPDATE (claimMethod): waiting gives
 * threeDSCompInd N, notified Y, and a second continue, or one racing it, finds it taken, so one
 * AReq goes per method, in the method's transaction. Then the ARes decides as for a payment
 * without method: frictionless (or a refusal) ends the payment here, through the acquirer with
 * the sealed card where it goes on; C turns the redirect into the ARes's challenge and leads to
 * the gateway's challenge page.
 */
export type MethodContinue = CompletionResult | { readonly kind: 'challenge'; readonly location: string };

const NOT_FOUND = { kind: 'ended', reason: 'not-found', locale: null } as const;

export async function continueAfterMethod(deps: PaymentDeps, redirectId: string): Promise<MethodContinue> {
  const claimed = await claimMethod(deps.storage, redirectId, deps.clock.now());
  if (!claimed) return alreadyGoneOn(deps, redirectId);
  const method = methodOf(claimed.resume)!;
  const resume = claimed.resume as unknown as MethodRedirectResume;
  if (!claimed.sealedMethod || !claimed.transactionId) return NOT_FOUND;
  const card = (await deps.vault.open(sealedMethodContext(claimed.id), claimed.sealedMethod)) as unknown as CardDetails;
  const answer = await askAfterMethod(deps, method, resume, card);
  const outcome = directoryOutcome(answer);
  if (outcome) deps.observe.threeDSecure(outcome);
  if (answer.kind === 'challenge' && answer.challenge) {
    const { challenge } = answer;
    const started = await startChallengeAfterMethod(deps.storage, claimed.id, {
      acsURL: challenge.acsURL, messageVersion: challenge.messageVersion, dsTransactionId: challenge.dsTransID, acsTransactionId: challenge.acsTransID,
    }, challengeExpiresAt(deps.clock.now(), deps, true)); // the RReq has THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES from the ARes, as any protocol challenge
    if (started) return { kind: 'challenge', location: `${CHALLENGE_START_PATH}/${claimed.id}` };
    return alreadyGoneOn(deps, redirectId);
  }
  // A C without its ACS is no result (the connector answers none such; the type allows it).
  const end: AuthenticationEnd = answer.kind === 'challenge' ? { kind: 'refuse', code: AUTHENTICATION_CODES.technicalError } : paymentAfterDirectory(answer, resume.required);
  const data = end.kind === 'proceed' && !end.withLiabilityShift ? undefined : answer.authentication;
  return endPayment(deps, claimed.id, resume, card, end, data);
}

/** The AReq after the method, to the server that answered `method`: the payment's 3DS server route, else the default. */
async function askAfterMethod(deps: PaymentDeps, method: MethodResume, resume: MethodRedirectResume, card: CardDetails): Promise<DirectoryLookupAnswer> {
  const root = deps.threeDSecure;
  const server: ThreeDSecureServer | undefined = root?.forPayment ? await root.forPayment(method.routing) : root;
  if (!server) return { kind: 'unavailable' };
  const answer = await server.lookup(queryAfterMethod(method.query, card, { threeDSServerTransID: resume.threeDSServerTransID, completed: method.completed ?? 'N' }));
  // The method ran: a server that asks for it again gives no result.
  return answer.kind === 'method' ? { kind: 'unavailable' } : answer;
}

/** Frictionless or refused: the redirect is taken (once), and the payment ends as a challenge's would. */
async function endPayment(deps: PaymentDeps, redirectId: string, resume: MethodRedirectResume, card: CardDetails, end: AuthenticationEnd, data: DirectoryLookupAnswer['authentication']): Promise<MethodContinue> {
  const redirect = await claimRedirect(deps.storage, redirectId, null, deps.clock.now());
  if (!redirect) return alreadyGoneOn(deps, redirectId);
  deps.observe.redirect('completed');
  const transaction = await findTransactionById(deps.storage, redirect.transactionId!);
  if (!transaction) return { kind: 'return', location: resultLocationOf(redirect) };
  const decided = await goOn(deps, transaction, resume as unknown as ChallengeResume, card, end, data);
  const code = await settleCompletion(deps, redirect, transaction, decided);
  const checkoutId = redirect.resume['checkoutId'];
  return { kind: 'return', location: resultLocationOf(redirect), payment: { transactionId: transaction.id, checkoutId: typeof checkoutId === 'string' ? checkoutId : undefined, code } };
}

/** The method was taken already (a second continue) or the redirect ended: where the shopper stands now. */
async function alreadyGoneOn(deps: PaymentDeps, redirectId: string): Promise<MethodContinue> {
  const found: ShopperRedirect | undefined = await findRedirect(deps.storage, redirectId);
  if (!found || !methodOf(found.resume)) return NOT_FOUND;
  const ended = endOf(found, deps.clock.now());
  if (!ended && protocolChallengeOf(found.resume)) return { kind: 'challenge', location: `${CHALLENGE_START_PATH}/${found.id}` };
  return { kind: 'ended', reason: ended ?? 'completed', locale: found.locale, shopUrl: shopUrlOf(found) };
}
