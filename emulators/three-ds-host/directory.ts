import { createHash } from 'node:crypto';
import { decode } from '../../src/connectors/emv3ds/codec.js';
import { erroFor, protocolError, type ErrorCode } from '../../src/connectors/emv3ds/errors.js';
import type { AReqMessage, AResMessage, CardRange, ErroMessage, PReqMessage, PResMessage } from '../../src/connectors/emv3ds/types.js';
import { validate } from '../../src/connectors/emv3ds/validate.js';
import type { LoggedType, ThreeDsLog } from './log.js';
import { maskPan } from './log.js';
import { eciOf, enrolledRanges, rowOf, SERIAL_NUMBER, type CardRangeRow } from './table.js';
import { appChallengeAnswer, type AppSigner } from './app-challenge.js';

/**
 * The directory server's side of the platform: an AReq is validated by the message layer and
 * answered from the table (the DS and the ACS are one program here, so the DS does not forward
 * it); a PReq is answered with the table's enrolled ranges.
 */

export const DS_REFERENCE_NUMBER = 'EMULATOR_DS_REF_0001';
export const ACS_REFERENCE_NUMBER = 'EMULATOR_ACS_REF_0001';
/** Transactions whose threeDSServerTransID could not be read are logged under this key. */
export const UNREADABLE = '(unreadable)';

/** What a browser challenge needs to remember between the ARes and the RReq. */
export interface PendingChallenge {
  readonly threeDSServerTransID: string;
  readonly acsTransID: string;
  readonly dsTransID: string;
  readonly messageVersion: AReqMessage['messageVersion'];
  readonly messageCategory: string;
  readonly threeDSServerURL: string;
  /** The browser's; empty for an app challenge (the SDK gets the CRes). */
  readonly notificationURL: string;
  /** The app challenge's SDK transaction; absent for a browser challenge. */
  readonly sdkTransID?: string | undefined;
  readonly merchantName: string;
  readonly purchaseAmount?: string | undefined;
  readonly purchaseCurrency?: string | undefined;
  readonly purchaseExponent?: string | undefined;
  readonly panLast4: string;
  completed: boolean;
}

export interface DirectoryState {
  readonly log: ThreeDsLog;
  readonly newId: () => string;
  /** The ACS's challenge page, as the ARes's acsURL names it. */
  readonly acsUrl: string;
  /** The ACS's 3DS Method page, as the PRes's threeDSMethodURL names it for the method rows. */
  readonly methodUrl: string;
  readonly slowMs: number;
  /** Pending and finished challenges by acsTransID. */
  readonly challenges: Map<string, PendingChallenge>;
  /** The key acsSignedContent is signed with, and the app challenge's acsURL (app-challenge.ts). */
  readonly appSigner: AppSigner;
  readonly appChallengeUrl: string;
}

/** An answer of the DS: a message (possibly late), or raw text (the malformed rows). */
export type DsAnswer = { readonly message: object; readonly delayMs?: number } | { readonly text: string };

export function answerAReq(text: string, state: DirectoryState): DsAnswer {
  const decoded = decode(text);
  const checked = decoded.ok ? validate(decoded.value, 'AReq') : decoded;
  if (!checked.ok) return refuse(checked.error, decoded.ok ? decoded.value : undefined, 'AReq', state);
  const areq = checked.message;
  const row = rowOf(areq.acctNumber);
  const entry = state.log.entry(areq.threeDSServerTransID);
  entry.maskedPan = maskPan(areq.acctNumber);
  entry.outcome = row.outcome;
  const prior = areq.threeDSRequestorPriorAuthenticationInfo;
  state.log.record(areq.threeDSServerTransID, 'AReq', 'in', { ...areq, ...(prior ? { priorAuthRef: prior['threeDSReqPriorRef'], priorAuthMethod: prior['threeDSReqPriorAuthMethod'] } : {}) });
  if (row.outcome === 'erro') return refuse(protocolError(row.errorCode as ErrorCode, 'emulator table: Erro row', areq), areq, 'AReq', state);
  const ares = aresFor(areq, row, state);
  entry.acsTransID = ares.acsTransID;
  entry.dsTransID = ares.dsTransID;
  // The log says what was sent: the malformed rows are logged as malformed, not as the ARes they stand for.
  if (row.outcome === 'not-json') {
    state.log.record(areq.threeDSServerTransID, 'ARes', 'out', { malformed: 'not JSON' });
    return { text: '<html><body>Service temporarily unavailable</body></html>' };
  }
  if (row.outcome === 'missing-fields') {
    const { transStatus: _status, acsTransID: _acs, ...broken } = ares;
    state.log.record(areq.threeDSServerTransID, 'ARes', 'out', { ...broken, malformed: 'transStatus and acsTransID left out' });
    return { message: broken };
  }
  state.log.record(areq.threeDSServerTransID, 'ARes', 'out', ares);
  return row.outcome === 'slow' ? { message: ares, delayMs: state.slowMs } : { message: ares };
}

function aresFor(areq: AReqMessage, row: CardRangeRow, state: DirectoryState): AResMessage {
  const ids = { threeDSServerTransID: areq.threeDSServerTransID, acsTransID: state.newId(), dsTransID: state.newId(), ...(areq.sdkTransID ? { sdkTransID: areq.sdkTransID } : {}) };
  const head = { messageType: 'ARes', messageVersion: areq.messageVersion, ...ids, acsReferenceNumber: ACS_REFERENCE_NUMBER, dsReferenceNumber: DS_REFERENCE_NUMBER } as const;
  const status = statusOf(areq, row);
  if (status === 'C') {
    // The app's challenge runs in its SDK (app-challenge.ts). A 3RI cannot be challenged (no
    // shopper): this ACS answers C all the same, which a 3DS Server must take as no result.
    if (areq.deviceChannel === '01') {
      state.challenges.set(ids.acsTransID, { ...pendingChallenge(areq, ids.acsTransID, ids.dsTransID), sdkTransID: areq.sdkTransID });
      return { ...head, ...appChallengeAnswer(areq, ids, state, ACS_REFERENCE_NUMBER) } as AResMessage;
    }
    if (areq.deviceChannel === '02') state.challenges.set(ids.acsTransID, pendingChallenge(areq, ids.acsTransID, ids.dsTransID));
    return { ...head, transStatus: 'C', acsURL: state.acsUrl, acsChallengeMandated: 'N', authenticationType: '02' };
  }
  if (status === 'Y' || status === 'A') return { ...head, transStatus: status, authenticationValue: authenticationValue(areq.threeDSServerTransID, status), eci: eciOf(status) };
  return { ...head, transStatus: status, transStatusReason: row.transStatusReason ?? '06', eci: eciOf(status) };
}

/** The method row answers its frictionless status only when the AReq says the 3DS Method ran. */
function statusOf(areq: AReqMessage, row: CardRangeRow): NonNullable<CardRangeRow['transStatus']> {
  if (row.outcome === 'method' && areq.threeDSCompInd !== 'Y') return 'C';
  return row.transStatus ?? 'U';
}

function pendingChallenge(areq: AReqMessage, acsTransID: string, dsTransID: string): PendingChallenge {
  return {
    threeDSServerTransID: areq.threeDSServerTransID, acsTransID, dsTransID, messageVersion: areq.messageVersion, messageCategory: areq.messageCategory,
    // threeDSServerURL is required for the app and browser channels, notificationURL for the browser's: validate() checked.
    threeDSServerURL: areq.threeDSServerURL!, notificationURL: areq.notificationURL ?? '',
    merchantName: areq.merchantName ?? areq.threeDSRequestorName, purchaseAmount: areq.purchaseAmount, purchaseCurrency: areq.purchaseCurrency,
    purchaseExponent: areq.purchaseExponent, panLast4: areq.acctNumber.slice(-4), completed: false,
  };
}

/** A deterministic 28-character CAVV stand-in: the same transaction and status always give the same value. */
export function authenticationValue(threeDSServerTransID: string, transStatus: string): string {
  return createHash('sha256').update(`${threeDSServerTransID}:${transStatus}`).digest().subarray(0, 20).toString('base64');
}

export function answerPReq(text: string, state: DirectoryState): DsAnswer {
  const decoded = decode(text);
  const checked = decoded.ok ? validate(decoded.value, 'PReq') : decoded;
  if (!checked.ok) return refuse(checked.error, decoded.ok ? decoded.value : undefined, 'PReq', state);
  const preq: PReqMessage = checked.message;
  state.log.record(preq.threeDSServerTransID, 'PReq', 'in', preq);
  // No serial number: the whole list; ours: nothing changed since; any other: the spec's 307.
  if (preq.serialNum !== undefined && preq.serialNum !== SERIAL_NUMBER) return refuse(protocolError('307', 'serialNum', preq), preq, 'PReq', state);
  const ranges = preq.serialNum === SERIAL_NUMBER ? [] : enrolledRanges().map((row) => cardRange(row, state.methodUrl));
  const pres: PResMessage = {
    messageType: 'PRes', messageVersion: preq.messageVersion, threeDSServerTransID: preq.threeDSServerTransID, dsTransID: state.newId(),
    serialNum: SERIAL_NUMBER, dsStartProtocolVersion: '2.2.0', dsEndProtocolVersion: '2.3.1', ...(ranges.length > 0 ? { cardRangeData: ranges } : {}),
  };
  state.log.record(preq.threeDSServerTransID, 'PRes', 'out', { ...pres, cardRanges: String(ranges.length) });
  return { message: pres };
}

function cardRange(row: CardRangeRow, methodUrl: string): CardRange {
  return {
    startRange: row.startRange, endRange: row.endRange, actionInd: 'A', acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: row.acsEndProtocolVersion ?? '2.3.1',
    ...(row.threeDSMethod ? { threeDSMethodURL: methodUrl } : {}), acsInfoInd: ['01', '02'],
  };
}

/** The Erro of a refused message, logged under the transaction it named (if it could be read). */
export function refuse(error: ReturnType<typeof protocolError>, received: object | undefined, type: LoggedType, state: { readonly log: ThreeDsLog }, component: 'D' | 'A' = 'D'): { message: ErroMessage } {
  const erro = erroFor(error, component);
  const key = erro.threeDSServerTransID ?? UNREADABLE;
  if (received && !state.log.get(key)?.messages.some((m) => m.type === type && m.direction === 'in')) state.log.record(key, type, 'in', summaryOf(received));
  state.log.record(key, 'Erro', 'out', erro);
  return { message: erro };
}

/** A refused message is logged by its header only: its body may hold anything, a card number included. */
function summaryOf(received: object): Record<string, unknown> {
  const { messageVersion } = received as { messageVersion?: unknown };
  return { messageVersion };
}
