import { isJsonObject, type JsonObject } from './formats.js';
import { MESSAGE_TYPES, SUPPORTED_VERSIONS, type MessageType, type MessageVersion } from './fields.js';
import type { ErroMessage } from './types.js';

/**
 * The EMV 3-D Secure error codes (spec 2.2.0, Table A.4) the message layer and, later, the
 * connector and the emulator answer with. The layer itself gives 101, 102, 201, 202, 203 and 204;
 * 301 comes from matchTransaction (validate.ts); the others name what a component decides with
 * state or the network, and are here so that every Erro is built from this one table.
 */
export const ERROR_CODES = {
  '101': 'Message Received Invalid',
  '102': 'Message Version Number Not Supported',
  '103': 'Sent Messages Limit Exceeded',
  '201': 'Required Data Element Missing',
  '202': 'Critical Message Extension Not Recognised',
  '203': 'Format of One or More Data Elements is Invalid According to the Specification',
  '204': 'Duplicate Data Element',
  '301': 'Transaction ID Not Recognised',
  '302': 'Data Decryption Failure',
  '303': 'Access Denied, Invalid Endpoint',
  '304': 'ISO Code Invalid',
  '305': 'Transaction Data Not Valid',
  '306': 'Merchant Category Code (MCC) Not Valid for Payment System',
  '307': 'Serial Number Not Valid',
  '401': 'Transaction Timed Out',
  '402': 'Transient System Failure',
  '403': 'Permanent System Failure',
  '404': 'System Connection Failure',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Who found the error: C the 3DS SDK, S the 3DS Server, D the Directory Server, A the ACS. */
export type ErrorComponent = 'C' | 'S' | 'D' | 'A';

/**
 * Why a message was refused. `detail` names data elements (comma-separated paths) or says what
 * was wrong with the text; it never quotes a value, so it may be logged and sent as it is.
 */
export interface ProtocolError {
  readonly code: ErrorCode;
  readonly detail: string;
  /** The received messageType when it was one of the spec's. */
  readonly messageType?: MessageType | undefined;
  /** The received messageVersion when supported: the Erro answers in it. */
  readonly messageVersion?: MessageVersion | undefined;
  /** The transaction ids of the received message that were well formed. */
  readonly ids: Readonly<Partial<Record<TransactionIdField, string>>>;
}

export const TRANSACTION_ID_FIELDS = ['threeDSServerTransID', 'acsTransID', 'dsTransID', 'sdkTransID'] as const;
export type TransactionIdField = (typeof TRANSACTION_ID_FIELDS)[number];

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const ERRO_DETAIL_MAX = 2048;
/** Any run of digits as long as the shortest PAN's BIN and body: never echoed, whatever field carried it. */
const LONG_DIGITS = /\d{12,}/g;

/** A protocol error about `received` (whatever could be parsed of it, or nothing). */
export function protocolError(code: ErrorCode, detail: string, received?: unknown): ProtocolError {
  const object: JsonObject = isJsonObject(received) ? received : {};
  const type = object['messageType'];
  const version = object['messageVersion'];
  const ids: Partial<Record<TransactionIdField, string>> = {};
  for (const field of TRANSACTION_ID_FIELDS) {
    const value = object[field];
    if (typeof value === 'string' && UUID.test(value)) ids[field] = value;
  }
  return {
    code,
    // Details name fields, never values; the mask guards against a key or an extension id that is a card number.
    detail: detail.replace(LONG_DIGITS, (digits) => '*'.repeat(digits.length)).slice(0, ERRO_DETAIL_MAX),
    messageType: MESSAGE_TYPES.find((known) => known === type),
    messageVersion: SUPPORTED_VERSIONS.find((known) => known === version),
    ids,
  };
}

/**
 * The Erro message that answers a protocol error, as the spec prescribes: the code and its
 * description, the fields in errorDetail, the received type in errorMessageType, the ids it had.
 * `fallbackVersion`: the version to answer in when the received one was not supported (102).
 */
export function erroFor(error: ProtocolError, component: ErrorComponent, fallbackVersion: MessageVersion = '2.2.0'): ErroMessage {
  return {
    messageType: 'Erro',
    messageVersion: error.messageVersion ?? fallbackVersion,
    ...error.ids,
    errorCode: error.code,
    errorComponent: component,
    errorDescription: ERROR_CODES[error.code],
    errorDetail: error.detail,
    ...(error.messageType !== undefined ? { errorMessageType: error.messageType } : {}),
  };
}
