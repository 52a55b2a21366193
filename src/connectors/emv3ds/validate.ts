import { protocolError, type ProtocolError, type TransactionIdField } from './errors.js';
import { MESSAGE_TYPES, SUPPORTED_VERSIONS, type MessageType } from './fields.js';
import { checkObject, isJsonObject, type JsonObject } from './formats.js';
import { rulesOf } from './messages.js';
import type { MessageOf } from './types.js';

export type Validation<T extends MessageType = MessageType> =
  | { readonly ok: true; readonly message: MessageOf<T> }
  | { readonly ok: false; readonly error: ProtocolError };

export interface ValidateOptions {
  /** Ids of the message extensions the receiver understands; a critical one not listed is refused (202). */
  readonly recognisedExtensions?: readonly string[];
}

/**
 * Checks a parsed message against its type's rules for its version. The first broken rule wins,
 * in this order: not an object or an unexpected/unknown messageType (101), messageType or
 * messageVersion missing (201), an unsupported messageVersion (102), required data elements
 * missing (201, all of them named), malformed data elements (203, all named), a critical message
 * extension not recognised (202). Fields the tables do not know are tolerated: the spec lets
 * messages carry extensions, and only a critical messageExtension must be understood.
 */
export function validate<T extends MessageType = MessageType>(message: unknown, expectedType?: T, options: ValidateOptions = {}): Validation<T> {
  const refused = headerError(message, expectedType) ?? bodyError(message as JsonObject, options);
  if (refused) return { ok: false, error: refused };
  return { ok: true, message: message as MessageOf<T> };
}

function headerError(message: unknown, expectedType: MessageType | undefined): ProtocolError | undefined {
  if (!isJsonObject(message)) return protocolError('101', 'message is not a JSON object');
  const type = message['messageType'];
  if (type === undefined) return protocolError('201', 'messageType', message);
  if (!MESSAGE_TYPES.some((known) => known === type)) return protocolError('101', 'messageType', message);
  if (expectedType !== undefined && type !== expectedType) return protocolError('101', 'messageType', message);
  const version = message['messageVersion'];
  if (version === undefined) return protocolError('201', 'messageVersion', message);
  if (!SUPPORTED_VERSIONS.some((known) => known === version)) return protocolError('102', 'messageVersion', message);
  return undefined;
}

function bodyError(message: JsonObject, options: ValidateOptions): ProtocolError | undefined {
  const rules = rulesOf(message['messageType'] as MessageType, message['messageVersion'] as (typeof SUPPORTED_VERSIONS)[number]);
  const findings = checkObject(message, rules);
  if (findings.missing.length > 0) return protocolError('201', findings.missing.join(','), message);
  if (findings.invalid.length > 0) return protocolError('203', findings.invalid.join(','), message);
  const unknownCritical = criticalExtensions(message).filter((id) => !(options.recognisedExtensions ?? []).includes(id));
  if (unknownCritical.length > 0) return protocolError('202', unknownCritical.join(','), message);
  return undefined;
}

/** The ids of the message's critical extensions (their format is checked by the rules first). */
function criticalExtensions(message: JsonObject): string[] {
  const extensions = message['messageExtension'];
  if (!Array.isArray(extensions)) return [];
  return extensions.filter((extension: JsonObject) => extension['criticalityIndicator'] === true).map((extension: JsonObject) => String(extension['id']));
}

/**
 * Error 301 when an answer names another transaction than the one it answers: each id the
 * expected side gives must be the received one (compared as the spec writes them, case-insensitive).
 */
export function matchTransaction(received: JsonObject, expected: Readonly<Partial<Record<TransactionIdField, string>>>): ProtocolError | undefined {
  const differing = (Object.keys(expected) as TransactionIdField[]).filter((field) => {
    const value = received[field];
    return typeof value !== 'string' || value.toLowerCase() !== expected[field]?.toLowerCase();
  });
  return differing.length > 0 ? protocolError('301', differing.join(','), received) : undefined;
}
