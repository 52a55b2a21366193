import type { SealedSecret } from '../../domain/vault/index.js';
import { createBatchedLookup, LOOKUP_BATCH, perStorage } from '../batched-lookup.js';
import { createGroupCommit, type ItemResult } from '../group-commit.js';
import type { Queryable, Storage } from '../port.js';

export type RedirectPurpose = 'provider' | 'challenge';
export type RedirectState = 'open' | 'completing' | 'completed' | 'expired';

/** A shopper sent away from a payment or a standalone authentication (migration 018). */
export interface ShopperRedirect {
  readonly id: string;
  readonly entityId: string;
  readonly transactionId: string | null;
  readonly authenticationId: string | null;
  readonly purpose: RedirectPurpose;
  readonly state: RedirectState;
  readonly shopperResultUrl: string;
  readonly locale: string | null;
  /** What going on needs besides the card (no secrets). */
  readonly resume: Readonly<Record<string, unknown>>;
  readonly sealedMethod: SealedSecret | null;
  readonly choice: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly endedAt: Date | null;
}

interface RedirectRow {
  id: string;
  entity_id: string;
  transaction_id: string | null;
  authentication_id: string | null;
  purpose: RedirectPurpose;
  state: RedirectState;
  shopper_result_url: string;
  locale: string | null;
  resume: Record<string, unknown>;
  data_key_id: string | null;
  sealed_method: Buffer | Uint8Array | null;
  choice: string | null;
  created_at: Date;
  expires_at: Date;
  ended_at: Date | null;
}

function toRedirect(row: RedirectRow): ShopperRedirect {
  return {
    id: row.id,
    entityId: row.entity_id,
    transactionId: row.transaction_id,
    authenticationId: row.authentication_id,
    purpose: row.purpose,
    state: row.state,
    shopperResultUrl: row.shopper_result_url,
    locale: row.locale,
    resume: row.resume,
    sealedMethod: row.data_key_id && row.sealed_method ? { dataKeyId: row.data_key_id, sealed: Buffer.from(row.sealed_method) } : null,
    choice: row.choice,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
  };
}

export type NewRedirect = Omit<ShopperRedirect, 'state' | 'choice' | 'endedAt'>;

/** The JSON parameter of insertRedirectsSql: bytes as hex, decoded in SQL. */
export function redirectRows(redirects: readonly NewRedirect[]): string {
  return JSON.stringify(redirects.map((r) => ({
    id: r.id,
    entity_id: r.entityId,
    transaction_id: r.transactionId,
    authentication_id: r.authenticationId,
    purpose: r.purpose,
    shopper_result_url: r.shopperResultUrl,
    locale: r.locale,
    resume: r.resume,
    data_key_id: r.sealedMethod?.dataKeyId ?? null,
    sealed_method: r.sealedMethod ? r.sealedMethod.sealed.toString('hex') : null,
    created_at: r.createdAt,
    expires_at: r.expiresAt,
  })));
}

/**
 * The INSERT of redirects given as redirectRows() in `param`, as a CTE of a statement that also
 * writes their transactions' pending answers (writeSettledPayments): one round trip for both.
 */
export function insertRedirectsSql(param: string): string {
  return `INSERT INTO shopper_redirects (id, entity_id, transaction_id, authentication_id, purpose, state, shopper_result_url, locale,
            resume, data_key_id, sealed_method, created_at, expires_at)
     SELECT r.id, r.entity_id, r.transaction_id, r.authentication_id, r.purpose, 'open', r.shopper_result_url, r.locale,
            r.resume, r.data_key_id, decode(r.sealed_method, 'hex'), r.created_at, r.expires_at
       FROM json_to_recordset(${param}::json) AS r(id bpchar, entity_id bpchar, transaction_id bpchar, authentication_id bpchar, purpose text,
            shopper_result_url text, locale text, resume json, data_key_id bpchar, sealed_method text, created_at timestamptz, expires_at timestamptz)`;
}

export async function insertRedirects(db: Queryable, redirects: readonly NewRedirect[]): Promise<void> {
  if (redirects.length > 0) await db.query(insertRedirectsSql('$1'), [redirectRows(redirects)]);
}

export async function findRedirect(db: Queryable, id: string): Promise<ShopperRedirect | undefined> {
  const { rows } = await db.query<RedirectRow>('SELECT * FROM shopper_redirects WHERE id = $1', [id]);
  return rows[0] ? toRedirect(rows[0]) : undefined;
}

/** findRedirect, batched with the look-ups of concurrent requests (batched-lookup.ts). */
export const lookUpRedirect = perStorage((db: Queryable) => createBatchedLookup<string, ShopperRedirect>({
  ...LOOKUP_BATCH,
  read: async (ids) => {
    const { rows } = await db.query<RedirectRow>('SELECT * FROM shopper_redirects WHERE id = ANY($1::bpchar[])', [ids]);
    return new Map(rows.map((row) => [row.id, toRedirect(row)]));
  },
}));

interface RedirectClaim {
  readonly id: string;
  readonly choice: string | null;
  readonly now: Date;
}

/**
 * claimRedirect for a group of concurrent completions, one conditional UPDATE for all. Two
 * claims of one redirect in the same group (a double submit) update its row once: the row's
 * choice says which claim won, and only that one is answered with the redirect.
 */
async function claimRedirectGroup(db: Queryable, claims: readonly RedirectClaim[]): Promise<ItemResult<ShopperRedirect | undefined>[]> {
  const { rows } = await db.query<RedirectRow>(
    `UPDATE shopper_redirects r SET state = 'completing', choice = c.choice
       FROM json_to_recordset($1::json) AS c(id bpchar, choice text, now timestamptz)
      WHERE r.id = c.id AND r.state = 'open' AND r.expires_at > c.now RETURNING r.*`,
    [JSON.stringify(claims)],
  );
  const won = new Map(rows.map((row) => [row.id, row]));
  return claims.map((claim) => {
    const row = won.get(claim.id);
    if (!row || row.choice !== claim.choice) return { ok: true, value: undefined };
    won.delete(claim.id);
    return { ok: true, value: toRedirect(row) };
  });
}

const redirectClaims = perStorage((storage: Storage) => {
  const group = createGroupCommit<RedirectClaim, ShopperRedirect | undefined>({ storage, name: 'claim-redirect', write: claimRedirectGroup, transactional: false, maxGroupSize: LOOKUP_BATCH.maxBatch, maxConcurrentGroups: 1 });
  return (claim: RedirectClaim) => group.submit(claim);
});

/** claimRedirect, in one statement with the claims of concurrent completions (group commit). */
export async function claimRedirectGrouped(storage: Storage, id: string, choice: string | null, now: Date): Promise<ShopperRedirect | undefined> {
  return redirectClaims(storage, { id, choice, now });
}

/**
 * Takes an open, unexpired redirect for completion; undefined when it was completed, expired or
 * taken by a concurrent request already. The one conditional UPDATE is what makes a redirect
 * complete once: two completions, or a completion and the expiry job, cannot both take it.
 */
export async function claimRedirect(db: Queryable, id: string, choice: string | null, now: Date): Promise<ShopperRedirect | undefined> {
  const { rows } = await db.query<RedirectRow>(
    `UPDATE shopper_redirects SET state = 'completing', choice = $2
      WHERE id = $1 AND state = 'open' AND expires_at > $3 RETURNING *`,
    [id, choice, now],
  );
  return rows[0] ? toRedirect(rows[0]) : undefined;
}

/** A redirect a shopper's return ended, written with the outcome it decided (writeSettledPayments). */
export interface RedirectEnd {
  readonly id: string;
  readonly at: Date;
}

export function redirectEndRows(ends: readonly RedirectEnd[]): string {
  return JSON.stringify(ends.map((e) => ({ id: e.id, at: e.at })));
}

/** endRedirect's UPDATE (completed) of the redirects given as redirectEndRows() in `param`, as a CTE of the outcomes' statement. */
export function endRedirectsSql(param: string): string {
  return `UPDATE shopper_redirects r SET state = 'completed', ended_at = e.at, data_key_id = NULL, sealed_method = NULL
       FROM json_to_recordset(${param}::json) AS e(id bpchar, at timestamptz) WHERE r.id = e.id`;
}

/** Ends a redirect (completed or expired) and wipes the sealed card it kept. */
export async function endRedirect(db: Queryable, id: string, state: 'completed' | 'expired', now: Date): Promise<void> {
  await db.query(`UPDATE shopper_redirects SET state = $2, ended_at = $3, data_key_id = NULL, sealed_method = NULL WHERE id = $1`, [id, state, now]);
}

/** Takes up to `limit` open redirects past their expiry; each is taken by exactly one caller. */
export async function claimExpiredRedirects(db: Queryable, now: Date, limit: number): Promise<ShopperRedirect[]> {
  const { rows } = await db.query<RedirectRow>(
    `UPDATE shopper_redirects SET state = 'expired', ended_at = $1, data_key_id = NULL, sealed_method = NULL
      WHERE id IN (SELECT id FROM shopper_redirects WHERE state = 'open' AND expires_at <= $1
                    ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        AND state = 'open'
      RETURNING *`,
    [now, limit],
  );
  return rows.map(toRedirect);
}

/** The open redirect of a transaction, if it still waits for its shopper. */
export async function findOpenRedirectOf(db: Queryable, transactionId: string): Promise<ShopperRedirect | undefined> {
  const { rows } = await db.query<RedirectRow>(`SELECT * FROM shopper_redirects WHERE transaction_id = $1 AND state = 'open'`, [transactionId]);
  return rows[0] ? toRedirect(rows[0]) : undefined;
}

/**
 * Gives a taken redirect back to its shopper: a cancel the provider refused leaves the first
 * attempt as it was, so the shopper's return (or the expiry) can still end it.
 */
export async function releaseRedirect(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE shopper_redirects SET state = 'open', choice = NULL WHERE id = $1 AND state = 'completing'`, [id]);
}

/** The latest redirect of a transaction, in whatever state: where its later notifications go. */
export async function findLatestRedirectOf(db: Queryable, transactionId: string): Promise<ShopperRedirect | undefined> {
  const { rows } = await db.query<RedirectRow>('SELECT * FROM shopper_redirects WHERE transaction_id = $1 ORDER BY created_at DESC LIMIT 1', [transactionId]);
  return rows[0] ? toRedirect(rows[0]) : undefined;
}

/** findLatestRedirectOf for several transactions at once: the latest redirect of each that has one. */
export async function findLatestRedirectsOf(db: Queryable, transactionIds: readonly string[]): Promise<Map<string, ShopperRedirect>> {
  const { rows } = await db.query<RedirectRow>(
    'SELECT DISTINCT ON (transaction_id) * FROM shopper_redirects WHERE transaction_id = ANY($1::bpchar[]) ORDER BY transaction_id, created_at DESC',
    [transactionIds],
  );
  return new Map(rows.map((row) => [row.transaction_id!, toRedirect(row)]));
}

/** The challenge a real 3DS server started under this threeDSServerTransID (lower case), in whatever state (migration 063). */
export async function findRedirectByServerTransId(db: Queryable, threeDSServerTransID: string): Promise<ShopperRedirect | undefined> {
  const { rows } = await db.query<RedirectRow>(`SELECT * FROM shopper_redirects WHERE (resume->>'threeDSServerTransID') = $1`, [threeDSServerTransID]);
  return rows[0] ? toRedirect(rows[0]) : undefined;
}

/**
 * Writes the ACS's result into an open, unexpired challenge that has none yet; false when it has
 * one (a replayed RReq), was completed, or expired. The one conditional UPDATE is what makes a
 * result arrive once: two RReqs, or an RReq and the shopper's completion (which takes the row out
 * of 'open' first), cannot both write.
 */
export async function recordChallengeResult(db: Queryable, id: string, result: object, now: Date, expiresAt: Date): Promise<boolean> {
  // With its result the challenge waits for the shopper's CRes until expiresAt (never sooner than it would have).
  const { rows } = await db.query(
    `UPDATE shopper_redirects SET resume = (resume::jsonb || jsonb_build_object('challengeResult', $2::jsonb))::json,
            expires_at = GREATEST(expires_at, $4)
      WHERE id = $1 AND state = 'open' AND expires_at > $3 AND (resume->>'challengeResult') IS NULL RETURNING id`,
    [id, JSON.stringify(result), now, expiresAt],
  );
  return rows.length === 1;
}

/** What became of the ACS's 3DS Method notification (operations/three-d-secure/method-notification.ts). */
export type MethodNotificationOutcome = 'notified' | 'unknown' | 'replayed' | 'ended';

/**
 * Marks the open method of this threeDSServerTransID notified (the index of migration 063 finds
 * it); only a method still waiting takes it, in one conditional UPDATE: a second notification,
 * or one after the page went on (the AReq sent), changes nothing and says why.
 */
export async function recordMethodNotification(db: Queryable, threeDSServerTransID: string, now: Date): Promise<MethodNotificationOutcome> {
  const { rows } = await db.query(
    `UPDATE shopper_redirects
        SET resume = jsonb_set(jsonb_set(resume::jsonb, '{method,state}', '"notified"'), '{method,notifiedAt}', to_jsonb($2::text))::json
      WHERE (resume->>'threeDSServerTransID') = $1 AND state = 'open' AND expires_at > $3 AND (resume->'method'->>'state') = 'waiting'
      RETURNING id`,
    [threeDSServerTransID, now.toISOString(), now],
  );
  if (rows.length === 1) return 'notified';
  const found = await findRedirectByServerTransId(db, threeDSServerTransID);
  if (!found || typeof found.resume['method'] !== 'object') return 'unknown';
  return found.state === 'open' && found.expiresAt > now ? 'replayed' : 'ended';
}

/**
 * Takes the method of an open, unexpired redirect for its AReq: waiting or notified becomes sent,
 * with threeDSCompInd Y where the ACS had notified, else N, in one conditional UPDATE (its SET
 * reads the row as the UPDATE found it, under the row's lock). Undefined when the method was
 * taken already (the page's continue twice) or the redirect ended: so exactly one AReq goes.
 */
export async function claimMethod(db: Queryable, id: string, now: Date): Promise<ShopperRedirect | undefined> {
  const { rows } = await db.query<RedirectRow>(
    `UPDATE shopper_redirects
        SET resume = jsonb_set(resume::jsonb, '{method}', (resume::jsonb->'method') || jsonb_build_object('state', 'sent',
              'completed', CASE WHEN (resume->'method'->>'state') = 'notified' THEN 'Y' ELSE 'N' END))::json
      WHERE id = $1 AND state = 'open' AND expires_at > $2 AND (resume->'method'->>'state') IN ('waiting', 'notified')
      RETURNING *`,
    [id, now],
  );
  return rows[0] ? toRedirect(rows[0]) : undefined;
}

/**
 * After the method's AReq answered C: the redirect becomes the ARes's challenge (its ACS, ids,
 * version), still open, and ends by `challengeEnd` (its RReq's deadline) if that comes first.
 */
export async function startChallengeAfterMethod(db: Queryable, id: string, challenge: Readonly<Record<string, string>>, challengeEnd: Date): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE shopper_redirects SET resume = (resume::jsonb || $2::jsonb)::json, expires_at = LEAST(expires_at, $3) WHERE id = $1 AND state = 'open' RETURNING id`,
    [id, JSON.stringify(challenge), challengeEnd],
  );
  return rows.length === 1;
}
