import type { SealedSecret } from '../../domain/vault/index.js';
import { createBatchedLookup, LOOKUP_BATCH, perStorage } from '../batched-lookup.js';
import type { Queryable } from '../port.js';

export type RegistrationStatus = 'active' | 'pending' | 'deregistered';
export type RegistrationMethod = 'card' | 'bankAccount' | 'tokenAccount' | 'virtualAccount';

/** A registration row: display data in clear, the account number sealed by the vault. */
export interface StoredRegistration {
  readonly id: string;
  readonly entityId: string;
  readonly status: RegistrationStatus;
  readonly method: RegistrationMethod;
  readonly paymentBrand: string;
  /** What may be kept in clear: BIN, last four digits, holder, expiry, BIC, country … */
  readonly account: Readonly<Record<string, string>>;
  readonly sealed: SealedSecret | null;
  readonly fingerprint: string | null;
  readonly initialSchemeReference: string | null;
  readonly initialTransactionId: string | null;
  readonly sourceTransactionId: string | null;
  readonly recurringMigration: Readonly<Record<string, string>> | null;
  /** The registration as the API shows it, without the envelope fields. */
  readonly response: Record<string, unknown>;
  readonly deregistrationId: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly deregisteredAt: Date | null;
}

interface RegistrationRow {
  id: string;
  entity_id: string;
  status: RegistrationStatus;
  method: RegistrationMethod;
  payment_brand: string;
  account: Record<string, string>;
  data_key_id: string | null;
  sealed_account: Uint8Array | null;
  fingerprint: string | null;
  initial_scheme_reference: string | null;
  initial_transaction_id: string | null;
  source_transaction_id: string | null;
  recurring_migration: Record<string, string> | null;
  response: Record<string, unknown>;
  deregistration_id: string | null;
  created_at: Date;
  updated_at: Date;
  deregistered_at: Date | null;
}

function toStored(row: RegistrationRow): StoredRegistration {
  return {
    id: row.id,
    entityId: row.entity_id,
    status: row.status,
    method: row.method,
    paymentBrand: row.payment_brand,
    account: row.account,
    sealed: row.data_key_id && row.sealed_account ? { dataKeyId: row.data_key_id, sealed: Buffer.from(row.sealed_account) } : null,
    fingerprint: row.fingerprint,
    initialSchemeReference: row.initial_scheme_reference,
    initialTransactionId: row.initial_transaction_id,
    sourceTransactionId: row.source_transaction_id,
    recurringMigration: row.recurring_migration,
    response: row.response,
    deregistrationId: row.deregistration_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deregisteredAt: row.deregistered_at,
  };
}

export async function insertRegistration(db: Queryable, r: StoredRegistration): Promise<void> {
  await db.query(
    `INSERT INTO registrations (id, entity_id, status, method, payment_brand, account, data_key_id, sealed_account, fingerprint,
       initial_scheme_reference, initial_transaction_id, source_transaction_id, recurring_migration, response,
       deregistration_id, created_at, updated_at, deregistered_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18)`,
    [
      r.id, r.entityId, r.status, r.method, r.paymentBrand, JSON.stringify(r.account), r.sealed?.dataKeyId ?? null, r.sealed?.sealed ?? null,
      r.fingerprint, r.initialSchemeReference, r.initialTransactionId, r.sourceTransactionId,
      r.recurringMigration ? JSON.stringify(r.recurringMigration) : null, JSON.stringify(r.response),
      r.deregistrationId, r.createdAt, r.updatedAt, r.deregisteredAt,
    ],
  );
}

// A merchant's entityId also reaches the registrations of its channels; a channel's only its own.
const ENTITY_SCOPE = `(entity_id = $2 OR entity_id IN (SELECT id FROM entities WHERE merchant_id = $2))`;

/** The registration with that id, if the entity may see it; another entity's is not found. */
export async function findRegistration(db: Queryable, entityId: string, id: string): Promise<StoredRegistration | undefined> {
  const { rows } = await db.query<RegistrationRow>(`SELECT * FROM registrations WHERE id = $1 AND ${ENTITY_SCOPE}`, [id, entityId]);
  return rows[0] ? toStored(rows[0]) : undefined;
}

/** A registration with the merchant of its entity (null: the entity is a merchant), to check ENTITY_SCOPE in code. */
interface ScopedRegistration {
  readonly registration: StoredRegistration;
  readonly merchantOfEntity: string | null;
}

/**
 * Registrations by id, whatever their entity, batched with the look-ups of concurrent payments
 * (batched-lookup.ts): a schedule's runs and the registration payments of one second share one
 * statement instead of a round trip each. Only lookUpRegistration answers from it.
 */
const lookUpRegistrationById = perStorage((db: Queryable) => createBatchedLookup<string, ScopedRegistration>({
  ...LOOKUP_BATCH,
  read: async (ids) => {
    const { rows } = await db.query<RegistrationRow & { merchant_of_entity: string | null }>(
      `SELECT r.*, e.merchant_id AS merchant_of_entity FROM registrations r JOIN entities e ON e.id = r.entity_id WHERE r.id = ANY($1::bpchar[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, { registration: toStored(row), merchantOfEntity: row.merchant_of_entity }]));
  },
}));

/**
 * findRegistration, batched: read by id, then the entity checked here as ENTITY_SCOPE does in
 * SQL (its own, or a channel's of the merchant asking), so another entity's is still not found.
 */
export async function lookUpRegistration(db: Queryable, entityId: string, id: string): Promise<StoredRegistration | undefined> {
  const found = await lookUpRegistrationById(db, id);
  if (!found) return undefined;
  const visible = found.registration.entityId === entityId || found.merchantOfEntity === entityId;
  return visible ? found.registration : undefined;
}

export interface Deregistration {
  readonly deregistrationId: string;
  /** The stored view without the data deregistration erases (the holder). */
  readonly response: Record<string, unknown>;
  readonly at: Date;
}

/**
 * Deregisters unless already done: the sealed account, its fingerprint and the holder are erased
 * for good (nothing left to decrypt), BIN and last four digits stay for the merchant's records.
 * False when it was deregistered already (a concurrent DELETE won).
 */
export async function deregisterRegistration(db: Queryable, id: string, change: Deregistration): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE registrations SET status = 'deregistered', sealed_account = NULL, data_key_id = NULL, fingerprint = NULL,
       account = account - 'holder', response = $2, deregistration_id = $3, deregistered_at = $4, updated_at = $4
     WHERE id = $1 AND status <> 'deregistered'`,
    [id, JSON.stringify(change.response), change.deregistrationId, change.at],
  );
  return rowCount === 1;
}

/** The scheme reference of the registration's initial CIT: later MITs send it. */
export async function recordInitialSchemeReference(db: Queryable, id: string, schemeReference: string, transactionId: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE registrations SET initial_scheme_reference = $2, initial_transaction_id = $3, updated_at = $4
     WHERE id = $1 AND status <> 'deregistered'`,
    [id, schemeReference, transactionId, at],
  );
}

/**
 * Which scheme references the gateway knows: returned by one of its payments, or recorded on a
 * registration (a recurring migration brings the reference of an initial payment made
 * elsewhere). Batched with the questions of concurrent payments: the simulator asks it of every
 * MIT, so a second of scheduled runs asks it a thousand times.
 */
const knownSchemeReferences = perStorage((db: Queryable) => createBatchedLookup<string, true>({
  ...LOOKUP_BATCH,
  read: async (references) => {
    const { rows } = await db.query<{ reference: string }>(
      `SELECT v.reference FROM unnest($1::text[]) AS v(reference)
        WHERE EXISTS (SELECT 1 FROM transactions WHERE scheme_transaction_id = v.reference)
           OR EXISTS (SELECT 1 FROM registrations WHERE initial_scheme_reference = v.reference AND status <> 'deregistered')`,
      [references],
    );
    return new Map(rows.map((row) => [row.reference, true as const]));
  },
}));

/** Whether the gateway knows a scheme reference (knownSchemeReferences). */
export async function lookUpSchemeReference(db: Queryable, schemeReference: string): Promise<boolean> {
  return (await knownSchemeReferences(db, schemeReference)) === true;
}

export interface RegistrationListing {
  readonly id: string;
  readonly entityId: string;
  readonly method: RegistrationMethod;
  readonly paymentBrand: string;
  readonly createdAt: Date;
}

/** Registrations (not deregistered) of one account, by its fingerprint, across all entities. */
export async function findRegistrationsByFingerprint(db: Queryable, fingerprint: string): Promise<RegistrationListing[]> {
  const { rows } = await db.query<Pick<RegistrationRow, 'id' | 'entity_id' | 'method' | 'payment_brand' | 'created_at'>>(
    `SELECT id, entity_id, method, payment_brand, created_at FROM registrations
     WHERE fingerprint = $1 AND status <> 'deregistered' ORDER BY created_at, id`,
    [fingerprint],
  );
  return rows.map((row) => ({ id: row.id, entityId: row.entity_id, method: row.method, paymentBrand: row.payment_brand, createdAt: row.created_at }));
}

/**
 * A registration a payment created while its outcome was still open (createRegistration=true with
 * a redirect): active once the payment succeeds; on a decline its sealed account is erased and it
 * is deregistered, as if it had never been made. Answers the registration's id, if there was one.
 */
export async function settlePendingRegistrationOf(db: Queryable, transactionId: string, succeeded: boolean, at: Date): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    succeeded
      ? `UPDATE registrations SET status = 'active', updated_at = $2 WHERE source_transaction_id = $1 AND status = 'pending' RETURNING id`
      : `UPDATE registrations SET status = 'deregistered', sealed_account = NULL, data_key_id = NULL, fingerprint = NULL,
           account = account - 'holder', deregistered_at = $2, updated_at = $2
         WHERE source_transaction_id = $1 AND status = 'pending' RETURNING id`,
    [transactionId, at],
  );
  return rows[0]?.id;
}
