/**
 * How each table would be placed on a distributed PostgreSQL (Citus), as data: docs/scale-out.md
 * is written from it and test/integration/scale-out-design.test.ts checks the payment path's
 * statements against it. Nothing runs on Citus today; this is the design kept true by that test.
 *
 * The distribution column is the entity that owns the row: `entity_id` (the merchant or channel a
 * payment, key or notification belongs to; every payment-path request names it and its token is
 * bound to it), or `merchant_id` where the row is the merchant's as a whole (settlement, files,
 * console security). Rows of one entity share a shard, so a payment and everything it writes stay
 * on one node.
 */

export type Placement =
  | {
      readonly kind: 'distributed';
      readonly column: string;
      /** false: the column is not in the table yet and the schema change adds it (docs/scale-out.md). */
      readonly columnExists: boolean;
      readonly why: string;
    }
  /** Copied to every node: small, read by every shard's statements, written rarely. */
  | { readonly kind: 'reference'; readonly why: string }
  /** On the coordinator only: global state no shard owns. */
  | { readonly kind: 'local'; readonly why: string };

const byEntity = (why: string): Placement => ({ kind: 'distributed', column: 'entity_id', columnExists: true, why });
const byMerchant = (why: string): Placement => ({ kind: 'distributed', column: 'merchant_id', columnExists: true, why });
const entityToAdd = (why: string): Placement => ({ kind: 'distributed', column: 'entity_id', columnExists: false, why });

/** Every table of src/storage/migrations (the test checks the list against a migrated database). */
export const TABLE_PLACEMENT: Readonly<Record<string, Placement>> = {
  transactions: byEntity('every payment, capture, refund and reversal; a referencing row has its parent\'s entity or a channel of the same merchant'),
  idempotency_keys: byEntity('the key is unique per entity already: primary key (entity_id, key)'),
  notifications: byEntity('written in the payment\'s transaction (outbox)'),
  webhook_deliveries: entityToAdd('one per notification and webhook; written in the same statement as the notification'),
  webhook_attempts: entityToAdd('the history of a delivery, read with it'),
  webhooks: byEntity('the targets of an entity\'s (and its merchant\'s) notifications'),
  pending_checks: byEntity('the resolution schedule of a pending transaction'),
  registrations: byEntity('stored payment data, used by the entity\'s payments'),
  schedules: byEntity('a standing instruction pays for its entity'),
  schedule_runs: entityToAdd('the runs of a schedule, written with the payment they make'),
  checkouts: byEntity('a checkout pays for its entity'),
  shopper_redirects: byEntity('a redirect of an entity\'s payment'),
  three_d_secure_authentications: byEntity('an authentication of an entity\'s payment'),
  risk_rule_sets: byEntity('read by every card payment of the entity'),
  risk_list_entries: byEntity('read by every card payment of the entity'),
  risk_changes: byEntity('the history of the entity\'s risk settings'),
  risk_reviews: byEntity('the manual review decision of a payment, written under the payment\'s row lock'),
  overview_daily: byEntity('the console overview\'s daily rollup per entity; an operator\'s overview reads every shard'),
  overview_open: entityToAdd('pending payments counted by the rollup, one row per transaction until it is decided'),
  overview_watermark: { kind: 'local', why: 'one row: how far the overview rollup has read' },
  risk_attempts: { kind: 'distributed', column: 'key_hash', columnExists: true, why: 'velocity counters keyed by a hash of (merchant, key, value): each counter is one key_hash, so a count stays on one shard; not co-located with transactions' },
  api_request_log: byEntity('the request log the console shows per entity'),
  settlement_fees: byEntity('the fees of one merchant entity, read when its day is settled'),
  settlement_aggregations: byMerchant('a merchant\'s batch of a settlement day'),
  settlement_records: byMerchant('a merchant\'s settlement lines; lines no merchant matched yet need a home (docs/scale-out.md)'),
  sftp_keys: byMerchant('the keys that may fetch the merchant\'s files'),
  settlement_push_targets: byMerchant('where the merchant\'s files are pushed'),
  merchant_console_security: byMerchant('the merchant\'s sign-in policy'),
  entities: { kind: 'reference', why: 'every statement joins or checks it (channel → merchant); thousands of rows, written on onboarding only' },
  access_tokens: { kind: 'reference', why: 'looked up by token hash before the entity is known' },
  connector_routes: { kind: 'reference', why: 'routing table read by every payment; written by operators' },
  vault_keys: { kind: 'reference', why: 'data keys by period, read by every card payment' },
  jobs: { kind: 'local', why: 'today one queue claimed with FOR UPDATE SKIP LOCKED across all entities; docs/scale-out.md moves it to a per-shard queue' },
  worker_heartbeats: { kind: 'local', why: 'one row per worker process' },
  audit_log: { kind: 'local', why: 'one hash chain over every change: its order is global' },
  audit_head: { kind: 'local', why: 'the head of the audit chain' },
  console_users: { kind: 'local', why: 'operators and merchants\' people sign in before an entity is chosen; few rows' },
  console_sessions: { kind: 'local', why: 'looked up by session hash on every console request' },
  console_recovery_codes: { kind: 'local', why: 'belongs to a console user' },
  settlement_days: { kind: 'local', why: 'one row per settled day, for every merchant' },
  schema_migrations: { kind: 'local', why: 'the migration runner\'s own record (Citus propagates the DDL)' },
};

export function distributedTables(): ReadonlyMap<string, Extract<Placement, { kind: 'distributed' }>> {
  return new Map(Object.entries(TABLE_PLACEMENT).flatMap(([table, placement]) => (placement.kind === 'distributed' ? [[table, placement] as const] : [])));
}
