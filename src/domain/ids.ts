import { createHash, randomBytes } from 'node:crypto';

/** Sources of time and identity are passed in so that rules and tests control them. */
export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** 32 lowercase hex characters: entities, payments, tokens' ids. */
  id(): string;
  /** The secret half of an access token (see access-token-form.ts): 192 random bits, 32 characters base64url. */
  tokenPassword(): string;
}

export const systemClock: Clock = { now: () => new Date() };

// One getrandom call per 256 ids instead of one per id (randomBytes has no pool of its own).
const ID_BYTES = 16;
let idPool = Buffer.alloc(0);
let idOffset = 0;
function pooledRandomHex(): string {
  if (idOffset + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_BYTES * 256);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return idPool.toString('hex', idOffset - ID_BYTES, idOffset);
}

export const randomIds: IdGenerator = {
  id: pooledRandomHex,
  tokenPassword: () => randomBytes(24).toString('base64url'),
};

/**
 * Tokens are stored only as this hash; SHA-256 suffices because tokens carry at least 192 random
 * bits (256 for those issued before tokens took OPPWA's userId|password form).
 */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export const ENTITY_ID_PATTERN = /^[0-9a-f]{32}$/;
