import type { ItemResult } from '../../storage/group-commit.js';
import type { Queryable } from '../../storage/port.js';
import {
  insertTransactionsSql,
  lockTransactions,
  totalsRows,
  transactionRows,
  updateTotalsSql,
  visibilityKey,
  type StoredTransaction,
  type TotalsChange,
} from '../../storage/repositories/transactions.js';

/**
 * A capture, refund or reversal asking for its share of a parent. `plan` holds the payment
 * type's rule: it decides against the parent as it stands, including what earlier reservations
 * of the same group took, and either throws (a GatewayError refusing the request) or answers the
 * parent's new totals and the pending child to write.
 */
export interface ChildReservation<Result> {
  readonly entityId: string;
  readonly parentId: string;
  /** parent: undefined when there is none this entity may see. */
  readonly plan: (parent: StoredTransaction | undefined) => PlannedChild<Result>;
  /**
   * Runs in the reservation's transaction once its child is written (the console's audit entry):
   * the entry commits exactly when the reservation does. Throwing fails this request alone (the
   * group is written again item by item).
   */
  readonly alsoWrite?: ((tx: Queryable, result: Result) => Promise<void>) | undefined;
}

export interface PlannedChild<Result> {
  /** The parent with this reservation taken from its totals. */
  readonly parent: StoredTransaction;
  readonly child: StoredTransaction;
  /** What the request goes on with once the reservation is committed. */
  readonly result: Result;
}

/**
 * What each reservation's latest write planned (its child, and the result its request goes on
 * with), for when that write's commit goes unseen: the child's id says whether it committed, and
 * the result is what the request is answered. Weak: gone with the reservation.
 */
const lastPlanned = new WeakMap<ChildReservation<unknown>, PlannedChild<unknown>>();

function planned<Result>(reservation: ChildReservation<Result>, parent: StoredTransaction | undefined): ItemResult<PlannedChild<Result>> {
  try {
    const plan = reservation.plan(parent);
    lastPlanned.set(reservation as ChildReservation<unknown>, plan as PlannedChild<unknown>);
    return { ok: true, value: plan };
  } catch (error) {
    lastPlanned.delete(reservation as ChildReservation<unknown>);
    return { ok: false, error };
  }
}

/**
 * Which reservations the leader holds, after their group's commit went unseen: a reservation is
 * there when the child its write planned is. The parents are locked first, in a statement of
 * their own: a lost write still running on the server (a partition, not a failover) holds them,
 * so the read waits for it to end and then sees its children — else a reservation written again
 * would take a second share of the parent. Both reads lock, so a replica refuses them (25006) and
 * the storage waits for the leader.
 */
export async function reservationsCommitted<Result>(db: Queryable, reservations: readonly ChildReservation<Result>[]): Promise<boolean[]> {
  const plans = reservations.map((r) => lastPlanned.get(r as ChildReservation<unknown>));
  const written = plans.filter((plan): plan is PlannedChild<unknown> => plan !== undefined);
  if (written.length === 0) return reservations.map(() => false);
  // Each row by its id and its entity (the distribution column of docs/scale-out.md: one shard each).
  const rowsOf = (rows: readonly StoredTransaction[]) => [[...new Set(rows.map((row) => row.id))].sort(), [...new Set(rows.map((row) => row.entityId))]];
  await db.query('SELECT id FROM transactions WHERE id = ANY($1::char(32)[]) AND entity_id = ANY($2::char(32)[]) ORDER BY id FOR KEY SHARE', rowsOf(written.map((plan) => plan.parent)));
  const { rows } = await db.query<{ id: string }>('SELECT id FROM transactions WHERE id = ANY($1::char(32)[]) AND entity_id = ANY($2::char(32)[]) FOR KEY SHARE', rowsOf(written.map((plan) => plan.child)));
  const found = new Set(rows.map((row) => row.id.trim()));
  return plans.map((plan) => plan !== undefined && found.has(plan.child.id));
}

/** The results of committed reservations: what their planned write would have answered. */
export async function reservationResults<Result>(_db: Queryable, reservations: readonly ChildReservation<Result>[]): Promise<Result[]> {
  return reservations.map((r) => {
    const plan = lastPlanned.get(r as ChildReservation<unknown>);
    if (!plan) throw new Error('no planned write is known for this reservation');
    return plan.result as Result;
  });
}

/**
 * The reservations of a group, in one database transaction (the caller's): their parents locked
 * together, each reservation decided in turn against its parent as the ones before it left it,
 * then the parents' new totals and the pending children written by one statement. A refused
 * reservation fails its own request only; the others commit.
 *
 * Locking every parent first, in id order (lockTransactions), is what keeps the totals right: no
 * other transaction changes a parent between the decision and the write, and groups that share
 * parents wait for one another instead of deadlocking.
 */
export async function reserveChildren<Result>(tx: Queryable, reservations: readonly ChildReservation<Result>[]): Promise<ItemResult<Result>[]> {
  const parents = await lockTransactions(tx, reservations.map((r) => ({ id: r.parentId, entityId: r.entityId })));
  const current = new Map<string, StoredTransaction>();
  for (const parent of parents.values()) current.set(parent.id, parent);

  const changed = new Map<string, TotalsChange>();
  const children: StoredTransaction[] = [];
  const extraWrites: Array<() => Promise<void>> = [];
  const results = reservations.map((reservation): ItemResult<Result> => {
    const visible = parents.has(visibilityKey({ id: reservation.parentId, entityId: reservation.entityId }));
    const outcome = planned(reservation, visible ? current.get(reservation.parentId) : undefined);
    if (!outcome.ok) return outcome;
    const { parent, child, result } = outcome.value;
    current.set(parent.id, parent);
    changed.set(parent.id, { id: parent.id, totals: parent, at: parent.updatedAt });
    children.push(child);
    if (reservation.alsoWrite) extraWrites.push(() => reservation.alsoWrite!(tx, result));
    return { ok: true, value: result };
  });

  // Every accepted reservation changed its parent's totals and made a child: both or neither.
  if (children.length > 0) {
    await tx.query(`WITH totals AS (${updateTotalsSql('$1')}) ${insertTransactionsSql('$2')}`, [totalsRows([...changed.values()]), transactionRows(children)], { prepareAs: 'reserve_children' });
  }
  for (const write of extraWrites) await write();
  return results;
}
