import { encode, readMessage } from '../../src/connectors/emv3ds/codec.js';
import { protocolError, type ProtocolError } from '../../src/connectors/emv3ds/errors.js';
import type { CResMessage, RReqMessage } from '../../src/connectors/emv3ds/types.js';
import type { JsonObject } from '../../src/connectors/emv3ds/formats.js';
import { matchTransaction } from '../../src/connectors/emv3ds/validate.js';
import { authenticationValue, refuse, type DirectoryState, type PendingChallenge } from './directory.js';
import { challengePage, errorPage, resultPage } from './pages.js';
import { CHALLENGE_CODE, eciOf } from './table.js';

/**
 * The ACS's browser challenge: the CReq arrives as the browser's form post (base64url JSON in
 * `creq`), the page asks for a code, and its answer sends the RReq to the 3DS Server's
 * threeDSServerURL (the DS is this same program, so it does not forward), then hands the final
 * CRes to the browser in a form for the AReq's notificationURL.
 */

export interface AcsState extends DirectoryState {
  /** How long the ACS waits for the RRes. */
  readonly rreqTimeoutMs: number;
  /** How the RReq is posted where the 3DS server's certificate is of a private CA (ThreeDsHostOptions.resultsCa). */
  readonly resultsFetch?: typeof fetch | undefined;
}

export interface Page {
  readonly status: number;
  readonly html: string;
  /** Where the page's form posts to (the CSP must allow it). */
  readonly formTarget?: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export function openChallenge(form: URLSearchParams, state: AcsState): Page {
  const creq = form.get('creq') ?? '';
  const read = BASE64URL.test(creq) ? readMessage(Buffer.from(creq, 'base64url').toString('utf8'), 'CReq') : { ok: false as const, error: protocolError('101', 'creq is not base64url') };
  if (!read.ok) return refusedPage(read.error, state);
  const message = read.message;
  state.log.record(message.threeDSServerTransID, 'CReq', 'in', message);
  const challenge = state.challenges.get(message.acsTransID.toLowerCase());
  const mismatch = challenge ? matchTransaction(message as unknown as JsonObject, { threeDSServerTransID: challenge.threeDSServerTransID }) : protocolError('301', 'acsTransID', message);
  if (mismatch || !challenge) return refusedPage(mismatch!, state);
  if (challenge.completed) return refusedPage(protocolError('305', 'the challenge is already finished', message), state);
  // An app challenge is the SDK's (app-challenge.ts): no browser page for it.
  if (challenge.sdkTransID) return refusedPage(protocolError('301', 'an app challenge', message), state);
  const session = form.get('threeDSSessionData') ?? undefined;
  return {
    status: 200,
    html: challengePage({ acsTransID: challenge.acsTransID, merchantName: challenge.merchantName, amount: amountText(challenge), panLast4: challenge.panLast4, threeDSSessionData: session, testCode: CHALLENGE_CODE }),
  };
}

function refusedPage(error: ProtocolError, state: AcsState): Page {
  const { message: erro } = refuse(error, undefined, 'CReq', state, 'A');
  return { status: 400, html: errorPage(erro.errorCode, erro.errorDescription) };
}

function amountText(challenge: PendingChallenge): string | undefined {
  if (challenge.purchaseAmount === undefined) return undefined;
  const exponent = Number(challenge.purchaseExponent ?? '2');
  const digits = challenge.purchaseAmount.padStart(exponent + 1, '0');
  const major = exponent > 0 ? `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}` : digits;
  return `${major} (currency ${challenge.purchaseCurrency ?? '?'})`;
}

/** The page's answer: decide, send the RReq and wait for the RRes, then the final CRes page. */
export async function submitChallenge(form: URLSearchParams, state: AcsState): Promise<Page> {
  const challenge = state.challenges.get((form.get('acsTransID') ?? '').toLowerCase());
  if (!challenge) return refusedPage(protocolError('301', 'acsTransID'), state);
  if (challenge.completed) return refusedPage(protocolError('305', 'the challenge is already finished', { threeDSServerTransID: challenge.threeDSServerTransID }), state);
  challenge.completed = true;
  const cancelled = form.get('action') === 'cancel';
  const transStatus = !cancelled && form.get('code')?.trim() === CHALLENGE_CODE ? 'Y' : 'N';
  await sendResult(resultRequest(challenge, transStatus, cancelled), challenge, state);
  const cres: CResMessage = {
    messageType: 'CRes', messageVersion: challenge.messageVersion, threeDSServerTransID: challenge.threeDSServerTransID, acsTransID: challenge.acsTransID,
    challengeCompletionInd: 'Y', transStatus,
  };
  state.log.record(challenge.threeDSServerTransID, 'CRes', 'out', cres);
  const encoded = Buffer.from(encode(cres), 'utf8').toString('base64url');
  const session = form.get('threeDSSessionData') ?? undefined;
  return { status: 200, html: resultPage({ transStatus, cancelled, notificationURL: challenge.notificationURL, cres: encoded, threeDSSessionData: session }), formTarget: challenge.notificationURL };
}

export function resultRequest(challenge: PendingChallenge, transStatus: 'Y' | 'N', cancelled: boolean, challengeCancel = '01'): RReqMessage {
  const ids = { threeDSServerTransID: challenge.threeDSServerTransID, acsTransID: challenge.acsTransID, dsTransID: challenge.dsTransID };
  const common = { messageType: 'RReq', messageVersion: challenge.messageVersion, ...ids, ...(challenge.sdkTransID ? { sdkTransID: challenge.sdkTransID } : {}), messageCategory: challenge.messageCategory, authenticationType: '02', interactionCounter: '01', eci: eciOf(transStatus) } as const;
  if (transStatus === 'Y') return { ...common, transStatus, authenticationValue: authenticationValue(challenge.threeDSServerTransID, 'Y') };
  return { ...common, transStatus, transStatusReason: '01', ...(cancelled ? { challengeCancel } : {}) };
}

/**
 * POSTs the RReq to the 3DS Server and logs its answer (an RRes, an Erro, or why there was none).
 * The CRes goes to the browser whatever happened: the shopper must not be stuck on the ACS.
 */
export async function sendResult(rreq: RReqMessage, challenge: PendingChallenge, state: AcsState): Promise<void> {
  const key = challenge.threeDSServerTransID;
  state.log.record(key, 'RReq', 'out', rreq);
  try {
    const response = await (state.resultsFetch ?? fetch)(challenge.threeDSServerURL, {
      method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: encode(rreq), signal: AbortSignal.timeout(state.rreqTimeoutMs),
    });
    const read = readMessage(await response.text());
    if (!read.ok) return state.log.record(key, 'RRes', 'in', { error: `unreadable answer: ${read.error.code} ${read.error.detail}` });
    const mismatch = read.message.messageType === 'RRes' ? matchTransaction(read.message as unknown as JsonObject, { threeDSServerTransID: key, acsTransID: challenge.acsTransID }) : undefined;
    if (mismatch) return state.log.record(key, 'RRes', 'in', { error: `answer of another transaction: ${mismatch.detail}` });
    state.log.record(key, read.message.messageType === 'Erro' ? 'Erro' : 'RRes', 'in', read.message);
  } catch (error) {
    state.log.record(key, 'RRes', 'in', { error: `no answer: ${(error as Error).name}` });
  }
}
