import type { Role } from '../../domain/access/roles.js';
import type { AccountFailures } from '../../domain/people/lockout.js';
import type { SealedSecret } from '../../domain/vault/index.js';
import type { Queryable } from '../port.js';

/** A console person as stored. */
export interface StoredUser extends AccountFailures {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly passwordMustChange: boolean;
  readonly role: Role;
  readonly merchantId: string | null;
  readonly totpSealed: SealedSecret | null;
  readonly totpEnabledAt: Date | null;
  readonly totpLastStep: number | null;
  readonly createdAt: Date;
  readonly disabledAt: Date | null;
}

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  password_must_change: boolean;
  role: Role;
  merchant_id: string | null;
  totp_data_key_id: string | null;
  totp_sealed: Uint8Array | null;
  totp_enabled_at: Date | null;
  totp_last_step: bigint | string | null;
  failed_sign_ins: number;
  lock_count: number;
  locked_until: Date | null;
  created_at: Date;
  disabled_at: Date | null;
}

function toUser(row: UserRow): StoredUser {
  return {
    id: row.id, email: row.email, passwordHash: row.password_hash, passwordMustChange: row.password_must_change, role: row.role,
    merchantId: row.merchant_id?.trim() ?? null,
    totpSealed: row.totp_data_key_id && row.totp_sealed ? { dataKeyId: row.totp_data_key_id.trim(), sealed: Buffer.from(row.totp_sealed) } : null,
    totpEnabledAt: row.totp_enabled_at, totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    failedSignIns: row.failed_sign_ins, lockCount: row.lock_count, lockedUntil: row.locked_until, createdAt: row.created_at, disabledAt: row.disabled_at,
  };
}

export type NewUser = Pick<StoredUser, 'id' | 'email' | 'passwordHash' | 'passwordMustChange' | 'role' | 'merchantId' | 'createdAt'>;

/** Inserts a person; false when the e-mail address is taken (whatever its case). */
export async function insertUser(db: Queryable, user: NewUser): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO console_users (id, email, password_hash, password_must_change, role, merchant_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (lower(email)) DO NOTHING`,
    [user.id, user.email, user.passwordHash, user.passwordMustChange, user.role, user.merchantId, user.createdAt],
  );
  return rowCount === 1;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<StoredUser | undefined> {
  const { rows } = await db.query<UserRow>('SELECT * FROM console_users WHERE lower(email) = lower($1)', [email]);
  return rows[0] ? toUser(rows[0]) : undefined;
}

export async function findUser(db: Queryable, id: string, options: { lock?: boolean } = {}): Promise<StoredUser | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT * FROM console_users WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] ? toUser(rows[0]) : undefined;
}

/** The people of one merchant, or every person (null), by e-mail address. */
export async function listUsers(db: Queryable, merchantId: string | null): Promise<StoredUser[]> {
  const { rows } = merchantId === null
    ? await db.query<UserRow>('SELECT * FROM console_users ORDER BY lower(email)')
    : await db.query<UserRow>('SELECT * FROM console_users WHERE merchant_id = $1 ORDER BY lower(email)', [merchantId]);
  return rows.map(toUser);
}

export async function saveFailures(db: Queryable, id: string, failures: AccountFailures): Promise<void> {
  await db.query('UPDATE console_users SET failed_sign_ins = $2, lock_count = $3, locked_until = $4 WHERE id = $1', [id, failures.failedSignIns, failures.lockCount, failures.lockedUntil]);
}

export async function saveTotpSecret(db: Queryable, id: string, sealed: SealedSecret | null): Promise<void> {
  await db.query('UPDATE console_users SET totp_data_key_id = $2, totp_sealed = $3, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [id, sealed?.dataKeyId ?? null, sealed?.sealed ?? null]);
}

export async function enableTotp(db: Queryable, id: string, at: Date, step: number): Promise<void> {
  await db.query('UPDATE console_users SET totp_enabled_at = $2, totp_last_step = $3 WHERE id = $1', [id, at, step]);
}

/** Remembers the step of a code just accepted; false when a concurrent request took it first. */
export async function takeTotpStep(db: Queryable, id: string, step: number): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE console_users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)', [id, step]);
  return rowCount === 1;
}

export async function savePassword(db: Queryable, id: string, passwordHash: string, mustChange: boolean): Promise<void> {
  await db.query('UPDATE console_users SET password_hash = $2, password_must_change = $3 WHERE id = $1', [id, passwordHash, mustChange]);
}

export async function saveRole(db: Queryable, id: string, role: Role): Promise<void> {
  await db.query('UPDATE console_users SET role = $2 WHERE id = $1', [id, role]);
}

export async function saveDisabled(db: Queryable, id: string, at: Date | null): Promise<void> {
  await db.query('UPDATE console_users SET disabled_at = $2 WHERE id = $1', [id, at]);
}

export async function replaceRecoveryCodes(db: Queryable, id: string, hashes: readonly string[]): Promise<void> {
  await db.query('DELETE FROM console_recovery_codes WHERE user_id = $1', [id]);
  for (const hash of hashes) await db.query('INSERT INTO console_recovery_codes (user_id, code_hash) VALUES ($1, $2)', [id, hash]);
}

/** Marks a recovery code used; false when it is unknown or was used before. */
export async function useRecoveryCode(db: Queryable, id: string, hash: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE console_recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [id, hash, at]);
  return rowCount === 1;
}

export async function countUnusedRecoveryCodes(db: Queryable, id: string): Promise<number> {
  const { rows } = await db.query<{ n: number | bigint | string }>('SELECT count(*) AS n FROM console_recovery_codes WHERE user_id = $1 AND used_at IS NULL', [id]);
  return Number(rows[0]?.n ?? 0);
}
