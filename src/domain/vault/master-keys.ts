import { createHmac } from 'node:crypto';
import { KEY_BYTES, openBytes, sealBytes } from './cipher.js';

/** A key-encryption key from configuration, known by an id that reveals nothing about it. */
export interface MasterKey {
  readonly id: string;
  readonly key: Buffer;
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

/** 16 hex characters of an HMAC under the key itself: stable, and useless without the key. */
export function masterKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('open-payment-gateway vault master key id v1').digest('hex').slice(0, 16);
}

export function isMasterKeyHex(value: string): boolean {
  return HEX_KEY.test(value);
}

export function masterKeyFromHex(hex: string): MasterKey {
  if (!isMasterKeyHex(hex)) throw new Error(`a vault master key is ${KEY_BYTES * 2} hex characters`);
  const key = Buffer.from(hex, 'hex');
  return { id: masterKeyId(key), key };
}

/** A data key is wrapped by a master key the process does not have. */
export class MasterKeyUnavailableError extends Error {
  constructor(readonly masterKeyId: string) {
    super(`vault master key ${masterKeyId} is not configured (VAULT_MASTER_KEY / VAULT_ACCEPTED_MASTER_KEYS)`);
    this.name = 'MasterKeyUnavailableError';
  }
}

export interface WrappedKey {
  readonly masterKeyId: string;
  readonly wrappedKey: Buffer;
}

/**
 * The current master key wraps every new data key; the accepted ones only unwrap. Both sets are
 * needed while a rotation runs: processes that know old and new keys read every data key,
 * whichever key wraps it at that moment.
 */
export class MasterKeyRing {
  private readonly keys: ReadonlyMap<string, MasterKey>;

  constructor(
    readonly current: MasterKey,
    accepted: readonly MasterKey[] = [],
  ) {
    this.keys = new Map([...accepted, current].map((entry) => [entry.id, entry]));
  }

  knows(masterKeyId: string): boolean {
    return this.keys.has(masterKeyId);
  }

  wrap(dataKey: Buffer, context: string): WrappedKey {
    return { masterKeyId: this.current.id, wrappedKey: sealBytes(this.current.key, dataKey, context) };
  }

  unwrap(wrapped: WrappedKey, context: string): Buffer {
    const master = this.keys.get(wrapped.masterKeyId);
    if (!master) throw new MasterKeyUnavailableError(wrapped.masterKeyId);
    return openBytes(master.key, wrapped.wrappedKey, context);
  }
}
