/** Why a message could not be packed or read; never quotes field contents (they may be card data). */
export type Iso8583ErrorReason =
  | 'bad-mti'
  | 'unknown-field'
  | 'bad-content'
  | 'bad-length'
  | 'truncated'
  | 'trailing-bytes'
  | 'bad-bitmap'
  | 'frame-too-large';

export class Iso8583Error extends Error {
  override readonly name = 'Iso8583Error';
  constructor(
    readonly reason: Iso8583ErrorReason,
    /** The field concerned, when there is one. */
    readonly field?: number,
  ) {
    super(field === undefined ? `ISO 8583: ${reason}` : `ISO 8583: ${reason} in field ${field}`);
  }
}
