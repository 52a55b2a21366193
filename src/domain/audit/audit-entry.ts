import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';

/** The hash a chain starts from: the previous hash of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** One entry of the audit log as stored and hashed (docs/console.md, "The audit log"). */
export interface AuditEntry {
  readonly seq: bigint;
  readonly at: Date;
  readonly actorKind: 'user' | 'admin-api' | 'cli' | 'system';
  /** The actor as a person reads it: an e-mail, "admin API token", user@host (command line). */
  readonly actor: string;
  readonly actorUserId: string | null;
  readonly role: string | null;
  /** Where the change came from: the client address, or the host of the command line. */
  readonly address: string | null;
  readonly merchantId: string | null;
  /** What was done, as the permissions table names it where one applies (payments.refund, webhooks.manage …). */
  readonly action: string;
  readonly targetKind: string;
  readonly targetId: string;
  readonly before: AuditValue;
  readonly after: AuditValue;
  readonly prevHash: string;
  readonly hash: string;
}

export type AuditValue = null | boolean | number | string | readonly AuditValue[] | { readonly [key: string]: AuditValue };

/**
 * The hash of an entry: SHA-256 over a canonical JSON of every field but the hash itself, keys
 * sorted (PostgreSQL's jsonb gives before/after back in an order of its own), the previous hash
 * included, so that changing, removing or reordering any entry changes every hash after it.
 */
export function auditHash(entry: Omit<AuditEntry, 'hash'>): string {
  const content = stringify([
    entry.seq.toString(), entry.at.toISOString(), entry.actorKind, entry.actor, entry.actorUserId, entry.role, entry.address,
    entry.merchantId, entry.action, entry.targetKind, entry.targetId, entry.before, entry.after, entry.prevHash,
  ]);
  return createHash('sha256').update(content ?? '', 'utf8').digest('hex');
}

/** Names whose values never enter the log, whatever a caller passes: secrets are said to have changed, never shown. */
const SECRET_NAME = /secret|password|passwd|token$|cvv|cvc|totp|recovery|private|credential|pan$|cardnumber|card\.number/i;

/**
 * A value fit for the log: plain JSON (bigint and dates as strings, undefined dropped), with
 * every secret-looking field replaced by "[secret]". The value is stored and hashed in this form,
 * so it reads back identical from jsonb.
 */
export function auditValue(value: unknown): AuditValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map(auditValue);
  if (typeof value === 'object') {
    const result: Record<string, AuditValue> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (inner === undefined) continue;
      result[key] = SECRET_NAME.test(key) ? '[secret]' : auditValue(inner);
    }
    return result;
  }
  return String(value);
}

export type ChainVerdict =
  | { readonly ok: true; readonly entries: number; readonly headHash: string }
  | { readonly ok: false; readonly entries: number; readonly brokenAt: bigint; readonly reason: string };

/**
 * Checks one entry against the one before it: the sequence follows on, the previous hash is the
 * previous entry's, and the stored hash is the one its content gives. Returns why not, or null.
 */
export function entryBreak(entry: AuditEntry, previous: { readonly seq: bigint; readonly hash: string }): string | null {
  if (entry.seq !== previous.seq + 1n) return `entry ${entry.seq} follows entry ${previous.seq}: an entry is missing`;
  if (entry.prevHash !== previous.hash) return `entry ${entry.seq} does not point at the hash of entry ${previous.seq}`;
  if (auditHash(entry) !== entry.hash) return `entry ${entry.seq} was changed after it was written (its hash does not match its content)`;
  return null;
}

/**
 * What a change changed, for people to read: of two objects, only the keys whose values differ
 * (an entity's settings row has a dozen columns; one moved). Anything else is shown whole.
 */
export function changedParts(before: AuditValue, after: AuditValue): { before: AuditValue; after: AuditValue } {
  const isObject = (value: AuditValue): value is { readonly [key: string]: AuditValue } => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(before) || !isObject(after)) return { before, after };
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null));
  if (keys.length === 0) return { before, after };
  return { before: Object.fromEntries(keys.map((key) => [key, before[key] ?? null])), after: Object.fromEntries(keys.map((key) => [key, after[key] ?? null])) };
}
