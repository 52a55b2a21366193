import type { Actor } from '../../domain/access/actor.js';
import type { Clock } from '../../domain/ids.js';
import type { Queryable, Storage } from '../../storage/port.js';
import { recordChange } from './record-change.js';
import type { Vault } from '../../domain/vault/index.js';
import { createDataKeyStore } from '../../storage/repositories/vault-keys.js';

/** How a caller describes the change an operation makes, once it knows the operation's result. */
export interface AuditedChange<T> {
  readonly action: string;
  readonly target: (result: T) => { readonly kind: string; readonly id: string };
  /** The entity whose merchant owns the change (a merchant's admins read it); null: the operator's own setting. */
  readonly entityId: (result: T, db: Queryable) => string | null | Promise<string | null>;
  /** Read in the change's transaction before the operation runs. */
  readonly before?: ((db: Queryable) => Promise<unknown>) | undefined;
  /** What the change left, from the result or read in the transaction after the operation. */
  readonly after?: ((result: T, db: Queryable) => unknown) | undefined;
  /**
   * Runs before the transaction opens: whatever the operation would otherwise read outside it
   * (the vault's data key of the day). PGlite has one connection, and a read outside an open
   * transaction would wait for that transaction for ever.
   */
  readonly prepare?: (() => Promise<void>) | undefined;
}

/**
 * The transaction as a Storage: the operation's own statements and any transaction it opens run
 * in the caller's transaction, so the change and its audit entry commit together.
 */
function storageIn(tx: Queryable, outer: Storage): Storage {
  return { kind: outer.kind, query: (sql, params, options) => tx.query(sql, params, options), transaction: (fn) => fn(tx), close: () => outer.close() };
}

/** The merchant an entity belongs to: itself when it is a merchant, its merchant when a channel; null above merchants. */
export async function merchantOfEntity(db: Queryable, entityId: string): Promise<string | null> {
  const result = await db.query<{ merchant: string | null }>(
    "SELECT CASE WHEN kind = 'merchant' THEN id WHEN kind = 'channel' THEN merchant_id END AS merchant FROM entities WHERE id = $1",
    [entityId],
  );
  return result.rows[0]?.merchant?.trim() ?? null;
}

/**
 * Runs an operation with its change recorded in the audit log in the same database transaction:
 * the admin API, the command line and the console wrap the one operation each calls, passing who
 * acts. A refused change (the operation throws) leaves neither the change nor an entry.
 */
export async function withAudit<D extends { readonly storage: Storage; readonly clock: Clock }, T>(
  deps: D,
  actor: Actor,
  run: (deps: D) => Promise<T>,
  change: AuditedChange<T>,
): Promise<T> {
  await change.prepare?.();
  return deps.storage.transaction(async (tx) => {
    const before = change.before ? await change.before(tx) : undefined;
    const result = await run({ ...deps, storage: storageIn(tx, deps.storage) });
    const entityId = await change.entityId(result, tx);
    await recordChange(tx, deps.clock, {
      actor,
      action: change.action,
      target: change.target(result),
      merchantId: entityId === null ? null : await merchantOfEntity(tx, entityId),
      before,
      after: await change.after?.(result, tx),
    });
    return result;
  });
}

/**
 * Deps whose vault reads and writes its data keys in the audited transaction too (sealing route
 * credentials, fingerprinting a listed card): see Vault.within.
 */
export function withVaultInTransaction<D extends { readonly storage: Storage; readonly vault: Vault }>(deps: D): D {
  return { ...deps, vault: deps.vault.within(createDataKeyStore(deps.storage)) };
}

/**
 * Records a change that is already made, in a transaction of its own: for the few operations that
 * call out before they finish (a webhook test calls the receiver; a pending payment resolved by
 * hand goes through the payments' grouped writes), where holding a transaction open across the
 * call would stall others. The entry follows the change; a crash between the two loses the entry,
 * never the change (said in docs/console.md).
 */
export async function recordCompletedChange(deps: { readonly storage: Storage; readonly clock: Clock }, actor: Actor, change: { readonly action: string; readonly target: { readonly kind: string; readonly id: string }; readonly entityId: string | null; readonly before?: unknown; readonly after?: unknown }): Promise<void> {
  await deps.storage.transaction(async (tx) => {
    await recordChange(tx, deps.clock, {
      actor, action: change.action, target: change.target, before: change.before, after: change.after,
      merchantId: change.entityId === null ? null : await merchantOfEntity(tx, change.entityId),
    });
  });
}
