import { readMessage } from '../../connectors/emv3ds/codec.js';
import type { JsonObject } from '../../connectors/emv3ds/formats.js';
import { matchTransaction } from '../../connectors/emv3ds/validate.js';
import { findRedirect } from '../../storage/repositories/shopper-redirects.js';
import type { PaymentDeps } from '../deps.js';
import { completeRedirect, type CompletionResult } from '../redirects/complete-redirect.js';
import { protocolChallengeOf } from '../redirects/open-redirect.js';

/** A redirect's id, as threeDSSessionData carries it base64url-encoded (emv3ds-server/server.ts). */
const REDIRECT_ID = /^[a-zA-Z0-9]{32}$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,64}={0,2}$/;
/** A final CRes is a few hundred bytes; anything far larger is not one. */
const CRES_MAX_LENGTH = 8192;

const NOT_FOUND: Extract<CompletionResult, { kind: 'ended' }> = { kind: 'ended', reason: 'not-found', locale: null };

function redirectIdOf(session: string | undefined): string | undefined {
  if (!session || !BASE64URL.test(session)) return undefined;
  const id = Buffer.from(session, 'base64url').toString('utf8');
  return REDIRECT_ID.test(id) ? id : undefined;
}

/**
 * POST /v1/threeDSecure/notification, the notificationURL of the gateway's AReqs: the shopper's
 * browser posts the ACS's final CRes (`cres`, base64url) and the `threeDSSessionData` the CReq
 * sent, which names the redirect. The CRes must be well formed and of this redirect's
 * transaction; then the redirect completes as any other, except that the RReq the ACS sent first
 * decides (complete-redirect.ts): a CRes without RReq declines. Anything else is the "link not
 * found" page, and changes nothing.
 */
export async function receiveChallengeNotification(deps: PaymentDeps, posted: { readonly cres?: string | undefined; readonly threeDSSessionData?: string | undefined }): Promise<CompletionResult> {
  const redirectId = redirectIdOf(posted.threeDSSessionData);
  const encoded = posted.cres ?? '';
  if (!redirectId || encoded.length > CRES_MAX_LENGTH || !/^[A-Za-z0-9_-]+={0,2}$/.test(encoded)) return NOT_FOUND;
  const read = readMessage(Buffer.from(encoded, 'base64url').toString('utf8'), 'CRes');
  if (!read.ok) return NOT_FOUND;
  const found = await findRedirect(deps.storage, redirectId);
  const challenge = found ? protocolChallengeOf(found.resume) : undefined;
  // An app challenge ends by its RReq alone: its SDK, not a browser, gets the CRes.
  if (!found || !challenge || challenge.channel === 'app') return NOT_FOUND;
  const acsTransID = (found.resume as { acsTransactionId?: string }).acsTransactionId;
  if (matchTransaction(read.message as unknown as JsonObject, { threeDSServerTransID: challenge.threeDSServerTransID, ...(acsTransID ? { acsTransID } : {}) })) return { ...NOT_FOUND, locale: found.locale };
  return completeRedirect(deps, { redirectId, returned: {}, purpose: 'challenge', via: 'notification' });
}
