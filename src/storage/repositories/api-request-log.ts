import type { Queryable, SqlValue } from '../port.js';

/** One API request of a merchant, as the request log keeps it. */
export interface ApiRequestRecord {
  readonly entityId: string;
  readonly at: Date;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly resultCode: string | null;
  readonly durationMs: number;
  readonly requestId: string;
  readonly transactionId: string | null;
  /** The access token the request was accepted with. */
  readonly tokenId: string | null;
}

export interface StoredApiRequest extends ApiRequestRecord {
  readonly id: bigint;
}

/** Many requests in one statement: the log's batches cost one round trip, whatever their size. */
export async function insertApiRequests(db: Queryable, records: readonly ApiRequestRecord[]): Promise<void> {
  if (records.length === 0) return;
  const column = <T>(pick: (record: ApiRequestRecord) => T) => records.map(pick);
  await db.query(
    `INSERT INTO api_request_log (entity_id, at, method, path, status, result_code, duration_ms, request_id, transaction_id, token_id)
     SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::smallint[], $6::text[], $7::integer[], $8::text[], $9::text[], $10::text[])`,
    [
      column((r) => r.entityId), column((r) => r.at.toISOString()), column((r) => r.method), column((r) => r.path),
      column((r) => String(r.status)), column((r) => r.resultCode) as string[], column((r) => String(r.durationMs)),
      column((r) => r.requestId), column((r) => r.transactionId) as string[], column((r) => r.tokenId) as string[],
    ],
  );
}

/** Deletes up to `limit` requests older than `before`; the count tells the caller whether to go on. */
export async function deleteApiRequestsBefore(db: Queryable, before: Date, limit: number): Promise<number> {
  const result = await db.query(
    'DELETE FROM api_request_log WHERE id IN (SELECT id FROM api_request_log WHERE at < $1 ORDER BY at LIMIT $2)',
    [before, limit],
  );
  return result.rowCount;
}

export interface ApiRequestFilter {
  /** The entities whose requests may be shown: a merchant and its channels, or undefined for every entity (operators). */
  readonly merchantId?: string | undefined;
  readonly entityId?: string | undefined;
  readonly method?: string | undefined;
  readonly pathContains?: string | undefined;
  /** An exact status (404) or a class (4 for 4xx). */
  readonly status?: number | undefined;
  readonly statusClass?: number | undefined;
  readonly resultCode?: string | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
}

interface ApiRequestRow {
  id: bigint | string;
  entity_id: string;
  at: Date;
  method: string;
  path: string;
  status: number;
  result_code: string | null;
  duration_ms: number;
  request_id: string;
  transaction_id: string | null;
  token_id: string | null;
}

/** Newest first, keyset-paged by (at, id): `before` is the last row of the previous page. */
export async function listApiRequests(
  db: Queryable,
  filter: ApiRequestFilter,
  before: { readonly at: Date; readonly id: bigint } | undefined,
  limit: number,
): Promise<StoredApiRequest[]> {
  const conditions: string[] = [];
  const params: SqlValue[] = [];
  const next = (value: SqlValue) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.merchantId !== undefined) conditions.push(`entity_id IN (SELECT id FROM entities WHERE id = ${next(filter.merchantId)} OR merchant_id = $${params.length})`);
  if (filter.entityId !== undefined) conditions.push(`entity_id = ${next(filter.entityId)}`);
  if (filter.method !== undefined) conditions.push(`method = ${next(filter.method)}`);
  if (filter.pathContains !== undefined) conditions.push(`strpos(path, ${next(filter.pathContains)}) > 0`);
  if (filter.status !== undefined) conditions.push(`status = ${next(filter.status)}`);
  if (filter.statusClass !== undefined) conditions.push(`status / 100 = ${next(filter.statusClass)}`);
  if (filter.resultCode !== undefined) conditions.push(`result_code = ${next(filter.resultCode)}`);
  if (filter.from !== undefined) conditions.push(`at >= ${next(filter.from)}`);
  if (filter.to !== undefined) conditions.push(`at < ${next(filter.to)}`);
  if (before !== undefined) conditions.push(`(at, id) < (${next(before.at)}, ${next(before.id)})`);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const result = await db.query<ApiRequestRow>(
    `SELECT id, entity_id, at, method, path, status, result_code, duration_ms, request_id, transaction_id, token_id
       FROM api_request_log ${where} ORDER BY at DESC, id DESC LIMIT ${next(limit)}`,
    params,
  );
  return result.rows.map((row) => ({
    id: BigInt(row.id), entityId: row.entity_id.trim(), at: row.at, method: row.method, path: row.path, status: Number(row.status),
    resultCode: row.result_code, durationMs: Number(row.duration_ms), requestId: row.request_id, transactionId: row.transaction_id,
    tokenId: row.token_id?.trim() ?? null,
  }));
}

/** When each token was last used, as far as the request log remembers (its retention); absent: not within it. */
export async function lastUseOfTokens(db: Queryable, tokenIds: readonly string[]): Promise<Map<string, Date>> {
  if (tokenIds.length === 0) return new Map();
  const result = await db.query<{ token_id: string; last_used: Date }>(
    `SELECT t.id AS token_id, (SELECT max(at) FROM api_request_log r WHERE r.token_id = t.id) AS last_used
       FROM unnest($1::text[]) AS t(id)`,
    [tokenIds],
  );
  return new Map(result.rows.filter((row) => row.last_used !== null).map((row) => [row.token_id.trim(), row.last_used]));
}
