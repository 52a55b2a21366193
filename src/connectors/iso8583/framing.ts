import { Iso8583Error } from './errors.js';

/**
 * How messages are delimited on the TCP stream: a length header before each message.
 * binary2: two bytes, big-endian (the most common); ascii4: four decimal digits.
 */
export type Framing = 'binary2' | 'ascii4';

const HEADER_BYTES: Record<Framing, number> = { binary2: 2, ascii4: 4 };
/** Longest message either header can announce; a profile may allow less. */
export const MAX_FRAME_BYTES: Record<Framing, number> = { binary2: 0xffff, ascii4: 9_999 };

export function frame(message: Buffer, framing: Framing): Buffer {
  if (message.length > MAX_FRAME_BYTES[framing]) throw new Iso8583Error('frame-too-large');
  const header = Buffer.alloc(HEADER_BYTES[framing]);
  if (framing === 'binary2') header.writeUInt16BE(message.length);
  else header.write(String(message.length).padStart(4, '0'), 'ascii');
  return Buffer.concat([header, message]);
}

/**
 * Cuts a TCP stream into messages: chunks arrive split and joined at any byte, so bytes wait
 * here until a whole message is in. A header that is not a length, or announces more than
 * `maxBytes`, means the stream cannot be trusted any more: the caller closes the connection.
 */
export class FrameReader {
  #pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly framing: Framing,
    private readonly maxBytes: number = MAX_FRAME_BYTES[framing],
  ) {}

  push(chunk: Buffer): Buffer[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const messages: Buffer[] = [];
    const headerBytes = HEADER_BYTES[this.framing];
    while (this.#pending.length >= headerBytes) {
      const length = this.readHeader();
      if (this.#pending.length < headerBytes + length) break;
      messages.push(this.#pending.subarray(headerBytes, headerBytes + length));
      this.#pending = this.#pending.subarray(headerBytes + length);
    }
    return messages;
  }

  /** Bytes received that do not yet make a whole message. */
  get buffered(): number {
    return this.#pending.length;
  }

  private readHeader(): number {
    let length: number;
    if (this.framing === 'binary2') length = this.#pending.readUInt16BE(0);
    else {
      const digits = this.#pending.subarray(0, 4).toString('latin1');
      if (!/^[0-9]{4}$/.test(digits)) throw new Iso8583Error('bad-length');
      length = Number(digits);
    }
    if (length === 0 || length > this.maxBytes) throw new Iso8583Error('frame-too-large');
    return length;
  }
}
