import { decodeWithSpans, encodeWithSpans, type CodecProfile } from './codec.js';
import type { FieldSpan, IsoMessage } from './message.js';

/** Card data (PAN, expiry, track 2, track 1, PIN block) and the CVV2 field: never in a trace. */
export const ALWAYS_MASKED_FIELDS: readonly number[] = [2, 14, 35, 45, 52];

/**
 * A hex dump of a packed message for operators and logs, with every byte of the masked fields'
 * values replaced by `**` (the length prefixes stay, so a trace still shows the message's shape).
 * Field numbers of the profile's own sensitive fields (a CVV2 field) are added to the defaults.
 */
export function maskedHexTrace(bytes: Buffer, spans: readonly FieldSpan[], extraMasked: readonly number[] = []): string {
  const masked = new Set([...ALWAYS_MASKED_FIELDS, ...extraMasked]);
  const hidden = new Uint8Array(bytes.length);
  for (const span of spans) if (masked.has(span.field)) hidden.fill(1, span.start, span.end);
  const cells: string[] = [];
  for (let i = 0; i < bytes.length; i += 1) cells.push(hidden[i] ? '**' : bytes[i]!.toString(16).padStart(2, '0'));
  const lines: string[] = [];
  for (let i = 0; i < cells.length; i += 16) lines.push(`${i.toString(16).padStart(4, '0')}  ${cells.slice(i, i + 16).join(' ')}`);
  return lines.join('\n');
}

/** The trace of a message about to be sent. */
export function traceOutgoing(message: IsoMessage, profile: CodecProfile, extraMasked: readonly number[] = []): string {
  const { bytes, spans } = encodeWithSpans(message, profile);
  return maskedHexTrace(bytes, spans, extraMasked);
}

/**
 * The trace of bytes received. Bytes that do not decode are not dumped at all (no span would say
 * where a card number sits), only counted.
 */
export function traceIncoming(bytes: Buffer, profile: CodecProfile, extraMasked: readonly number[] = []): string {
  try {
    return maskedHexTrace(bytes, decodeWithSpans(bytes, profile).spans, extraMasked);
  } catch {
    return `<${bytes.length} bytes that do not decode; not shown>`;
  }
}
