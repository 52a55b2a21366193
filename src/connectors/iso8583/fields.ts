/**
 * The ISO 8583 field map as data. An acquirer's specification is a table of field numbers,
 * each with a content class, a length rule and an encoding; a profile (profiles.ts) holds one
 * such table, so a new acquirer is a new table, not new code.
 */

/** n: digits; an: letters and digits; ans: printable ASCII; z: track-2 (digits, '=', 'D'); b: bytes (hex in the message object). */
export type FieldContent = 'n' | 'an' | 'ans' | 'z' | 'b';

/** fixed: always `length`; llvar/lllvar: a 2- or 3-digit length prefix, at most `length`. */
export type FieldLength = 'fixed' | 'llvar' | 'lllvar';

/**
 * How a profile writes numbers, length prefixes and the bitmap. ascii: one character per digit,
 * the bitmap as 16 hex characters per 64 bits. binary: digits packed two per byte (BCD, left
 * padded with 0), length prefixes in BCD, the bitmap as 8 raw bytes per 64 bits.
 */
export type WireEncoding = 'ascii' | 'binary';

export interface FieldSpec {
  readonly number: number;
  readonly name: string;
  readonly content: FieldContent;
  readonly lengthType: FieldLength;
  /** Exact length (fixed) or maximum (llvar, lllvar): characters, or bytes for content b. */
  readonly length: number;
}

export type FieldMap = ReadonlyMap<number, FieldSpec>;

export function fieldMap(specs: readonly FieldSpec[]): FieldMap {
  const map = new Map<number, FieldSpec>();
  for (const spec of specs) {
    if (spec.number < 2 || spec.number > 128 || spec.number === 65) throw new Error(`field ${spec.number} cannot be defined (1 and 65 are bitmaps)`);
    if (map.has(spec.number)) throw new Error(`field ${spec.number} is defined twice`);
    const max = spec.lengthType === 'llvar' ? 99 : spec.lengthType === 'lllvar' ? 999 : Number.MAX_SAFE_INTEGER;
    if (spec.length < 1 || spec.length > max) throw new Error(`field ${spec.number}: length ${spec.length} does not fit ${spec.lengthType}`);
    map.set(spec.number, Object.freeze({ ...spec }));
  }
  return map;
}

const f = (number: number, name: string, content: FieldContent, lengthType: FieldLength, length: number): FieldSpec => ({ number, name, content, lengthType, length });

/**
 * The fields of the 1987 standard that the gateway's messages use, as most acquirers define
 * them. Field 48 carries the gateway's transaction id (the host's key for advices and status)
 * and field 126 the CVV2 (masked in traces, like the card data of 2, 14, 35, 45, 52).
 */
export const ISO8583_1987_FIELDS: readonly FieldSpec[] = [
  f(2, 'primaryAccountNumber', 'n', 'llvar', 19),
  f(3, 'processingCode', 'n', 'fixed', 6),
  f(4, 'amountTransaction', 'n', 'fixed', 12),
  f(7, 'transmissionDateTime', 'n', 'fixed', 10),
  f(11, 'systemsTraceAuditNumber', 'n', 'fixed', 6),
  f(12, 'localTime', 'n', 'fixed', 6),
  f(13, 'localDate', 'n', 'fixed', 4),
  f(14, 'expirationDate', 'n', 'fixed', 4),
  f(18, 'merchantCategoryCode', 'n', 'fixed', 4),
  f(22, 'posEntryMode', 'n', 'fixed', 3),
  f(25, 'posConditionCode', 'n', 'fixed', 2),
  f(32, 'acquiringInstitutionId', 'n', 'llvar', 11),
  f(35, 'track2Data', 'z', 'llvar', 37),
  f(37, 'retrievalReferenceNumber', 'an', 'fixed', 12),
  f(38, 'authorizationIdResponse', 'an', 'fixed', 6),
  f(39, 'responseCode', 'an', 'fixed', 2),
  f(41, 'cardAcceptorTerminalId', 'ans', 'fixed', 8),
  f(42, 'cardAcceptorIdCode', 'ans', 'fixed', 15),
  f(43, 'cardAcceptorNameLocation', 'ans', 'fixed', 40),
  f(44, 'additionalResponseData', 'ans', 'llvar', 25),
  f(45, 'track1Data', 'ans', 'llvar', 76),
  f(48, 'additionalDataPrivate', 'ans', 'lllvar', 999),
  f(49, 'currencyCodeTransaction', 'n', 'fixed', 3),
  f(52, 'pinData', 'b', 'fixed', 8),
  f(53, 'securityRelatedControlInfo', 'n', 'fixed', 16),
  f(54, 'additionalAmounts', 'an', 'lllvar', 120),
  f(55, 'iccData', 'b', 'lllvar', 255),
  f(60, 'reservedNational', 'ans', 'lllvar', 999),
  f(70, 'networkManagementInfoCode', 'n', 'fixed', 3),
  f(90, 'originalDataElements', 'n', 'fixed', 42),
  f(95, 'replacementAmounts', 'an', 'fixed', 42),
  f(126, 'cvv2', 'n', 'llvar', 4),
  f(128, 'messageAuthenticationCode', 'b', 'fixed', 8),
];
