import type { Queryable } from '../port.js';

/** What a merchant may filter its transactions by (the query API's parameters). */
export interface TransactionFilter {
  /** The entities whose transactions are visible: the entity itself and, for a merchant, its channels. */
  readonly entityIds: readonly string[];
  readonly merchantTransactionId?: string | undefined;
  readonly shortId?: string | undefined;
  readonly createdFrom?: Date | undefined;
  /** Exclusive. */
  readonly createdBefore?: Date | undefined;
  readonly paymentTypes?: readonly string[] | undefined;
  readonly paymentMethods?: readonly string[] | undefined;
  readonly limit: number;
}

/** The stored response of a transaction, which is what the query API shows. */
export interface QueriedTransaction {
  readonly id: string;
  readonly parentId: string | null;
  readonly response: Record<string, unknown>;
}

interface Row {
  id: string;
  parent_id: string | null;
  response: Record<string, unknown>;
}

const toQueried = (row: Row): QueriedTransaction => ({ id: row.id, parentId: row.parent_id, response: row.response });

/** The entity and, when it is a merchant, its channels: one indexed lookup per request. */
export async function visibleEntityIds(db: Queryable, entityId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM entities WHERE id = $1 OR merchant_id = $1', [entityId]);
  return rows.map((r) => r.id);
}

/**
 * Newest first. Every branch of the WHERE clause starts with entity_id = ANY(…) so that the
 * (entity_id, created_at) and (entity_id, merchant_transaction_id) indexes carry the query.
 */
export async function findTransactions(db: Queryable, filter: TransactionFilter): Promise<QueriedTransaction[]> {
  const params: unknown[] = [filter.entityIds];
  const where = ['entity_id = ANY($1::char(32)[])'];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replace('?', `$${params.length}`));
  };
  if (filter.merchantTransactionId !== undefined) add('merchant_transaction_id = ?', filter.merchantTransactionId);
  if (filter.shortId !== undefined) add('short_id = ?', filter.shortId);
  if (filter.createdFrom !== undefined) add('created_at >= ?', filter.createdFrom);
  if (filter.createdBefore !== undefined) add('created_at < ?', filter.createdBefore);
  if (filter.paymentTypes?.length) add('payment_type = ANY(?::text[])', filter.paymentTypes);
  if (filter.paymentMethods?.length) add('payment_method = ANY(?::text[])', filter.paymentMethods);
  params.push(filter.limit);
  const { rows } = await db.query<Row>(
    `SELECT id, parent_id, response FROM transactions WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params as never[],
  );
  return rows.map(toQueried);
}

export async function findVisibleTransaction(db: Queryable, entityIds: readonly string[], id: string): Promise<QueriedTransaction | undefined> {
  const { rows } = await db.query<Row>('SELECT id, parent_id, response FROM transactions WHERE id = $1 AND entity_id = ANY($2::char(32)[])', [id, entityIds as string[]]);
  return rows[0] ? toQueried(rows[0]) : undefined;
}

/** The parent and the children (captures, refunds, reversals) of a transaction, oldest first. */
export async function findLinkedTransactions(db: Queryable, entityIds: readonly string[], transaction: QueriedTransaction): Promise<QueriedTransaction[]> {
  const { rows } = await db.query<Row>(
    `SELECT id, parent_id, response FROM transactions
      WHERE entity_id = ANY($1::char(32)[]) AND (parent_id = $2 OR id = $3)
      ORDER BY created_at, id`,
    [entityIds as string[], transaction.id, transaction.parentId],
  );
  return rows.map(toQueried);
}
