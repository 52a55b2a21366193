import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { decode } from '../../src/connectors/emv3ds/codec.js';
import { protocolError, type ProtocolError } from '../../src/connectors/emv3ds/errors.js';
import type { JsonObject } from '../../src/connectors/emv3ds/formats.js';
import type { AReqMessage, CReqMessage, CResMessage, ErroMessage } from '../../src/connectors/emv3ds/types.js';
import { matchTransaction, validate } from '../../src/connectors/emv3ds/validate.js';
import { refuse, type DirectoryState, type PendingChallenge } from './directory.js';
import type { AcsState } from './acs.js';
import { resultRequest, sendResult } from './acs.js';
import { CHALLENGE_CODE } from './table.js';

/**
 * The ACS's app challenge (deviceChannel 01), simplified for tests (README, "The app challenge"):
 *
 * - the ARes's acsSignedContent is a compact JWS (ES256, signed with a key the emulator makes at
 *   start; header `kid` three-ds-host) whose payload holds acsTransID, acsRefNumber, acsURL (this
 *   endpoint), acsEphemPubKey and the AReq's sdkEphemPubKey, as EMV 3DS 2.2 (6.2.2.2) has it. No
 *   certificate chain (x5c) and no key agreement: nobody can verify the signature against a DS CA;
 * - the SDK's CReq comes as plain JSON (no JWE under the agreed key) POSTed to acsURL, and the
 *   CRes is answered as plain JSON: a test plays the SDK;
 * - a CReq without challengeDataEntry (the first) gets the challenge screen: a CRes with
 *   challengeCompletionInd N; one with the code (1234) ends Y, another code N (reason 01),
 *   challengeCancel N with that challengeCancel. The end sends the RReq to the AReq's
 *   threeDSServerURL, then answers the final CRes.
 */

export const APP_CHALLENGE_PATH = '/acs/app-challenge';
export const SIGNING_KEY_ID = 'three-ds-host';

export interface AppSigner {
  readonly privateKey: KeyObject;
  readonly publicJwk: Readonly<Record<string, string>>;
}

export function newAppSigner(): AppSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  return { privateKey: createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' })), publicJwk: { kty: jwk['kty']!, crv: jwk['crv']!, x: jwk['x']!, y: jwk['y']! } };
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** acsSignedContent: header.payload.signature, ES256 (the signature as r||s). */
export function acsSignedContent(signer: AppSigner, payload: Readonly<Record<string, unknown>>): string {
  const input = `${base64url({ alg: 'ES256', kid: SIGNING_KEY_ID })}.${base64url(payload)}`;
  const signature = sign('sha256', Buffer.from(input, 'utf8'), { key: signer.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** The ARes's app challenge fields, and the challenge the ACS keeps. */
export function appChallengeAnswer(areq: AReqMessage, ids: { readonly acsTransID: string; readonly dsTransID: string }, state: Pick<DirectoryState, 'appSigner' | 'appChallengeUrl'>, acsReferenceNumber: string): Record<string, unknown> {
  const payload = { acsTransID: ids.acsTransID, acsRefNumber: acsReferenceNumber, acsURL: state.appChallengeUrl, acsEphemPubKey: state.appSigner.publicJwk, sdkEphemPubKey: areq.sdkEphemPubKey };
  return {
    transStatus: 'C', acsChallengeMandated: 'N', authenticationType: '02',
    acsSignedContent: acsSignedContent(state.appSigner, payload),
    acsRenderingType: { acsInterface: '01', acsUiTemplate: '01' },
  };
}

export interface JsonAnswer {
  readonly status: number;
  readonly message: CResMessage | ErroMessage;
}

function refused(error: ProtocolError, state: AcsState): JsonAnswer {
  return { status: 200, message: refuse(error, undefined, 'CReq', state, 'A').message };
}

/** The SDK's CReq (plain JSON here) → the next CRes; the last one after the RReq was sent. */
export async function answerAppCReq(text: string, state: AcsState): Promise<JsonAnswer> {
  const decoded = decode(text);
  const checked = decoded.ok ? validate(decoded.value, 'CReq') : decoded;
  if (!checked.ok) return refused(checked.error, state);
  const creq: CReqMessage = checked.message;
  if (!creq.sdkTransID) return refused(protocolError('201', 'sdkTransID', creq), state);
  state.log.record(creq.threeDSServerTransID, 'CReq', 'in', creq);
  const challenge = state.challenges.get(creq.acsTransID.toLowerCase());
  const mismatch = challenge?.sdkTransID
    ? matchTransaction(creq as unknown as JsonObject, { threeDSServerTransID: challenge.threeDSServerTransID, sdkTransID: challenge.sdkTransID })
    : protocolError('301', 'acsTransID', creq);
  if (mismatch || !challenge) return refused(mismatch!, state);
  if (challenge.completed) return refused(protocolError('305', 'the challenge is already finished', creq), state);
  const counter = creq.sdkCounterStoA ?? '000';
  const cancelled = creq.challengeCancel !== undefined;
  if (!cancelled && creq.challengeDataEntry === undefined) return { status: 200, message: cres(challenge, counter, undefined, state) };
  challenge.completed = true;
  const transStatus = !cancelled && creq.challengeDataEntry?.trim() === CHALLENGE_CODE ? 'Y' : 'N';
  await sendResult(resultRequest(challenge, transStatus, cancelled, creq.challengeCancel), challenge, state);
  return { status: 200, message: cres(challenge, counter, transStatus, state) };
}

function cres(challenge: PendingChallenge, counter: string, transStatus: 'Y' | 'N' | undefined, state: AcsState): CResMessage {
  const message = {
    messageType: 'CRes', messageVersion: challenge.messageVersion, threeDSServerTransID: challenge.threeDSServerTransID, acsTransID: challenge.acsTransID,
    sdkTransID: challenge.sdkTransID, acsCounterAtoS: counter,
    ...(transStatus ? { challengeCompletionInd: 'Y', transStatus } : { challengeCompletionInd: 'N', acsUiType: '01', challengeInfoText: `Enter the code (test code ${CHALLENGE_CODE})` }),
  } as CResMessage;
  state.log.record(challenge.threeDSServerTransID, 'CRes', 'out', message);
  return message;
}

