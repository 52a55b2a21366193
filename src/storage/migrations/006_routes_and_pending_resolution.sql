-- Routing: which connector serves an entity's payments of a brand and currency, with the
-- credentials the connector presents to its acquirer. NULL in entity_id, payment_brand or currency
-- means "any"; the most specific route wins (routing.ts). Credentials are sealed by the vault
-- (AES-256-GCM under a data key wrapped by the master key); only their names are kept in clear.
-- A route is never deleted, only disabled: the captures, refunds and status queries of payments
-- it carried still need its connector and credentials.
CREATE TABLE connector_routes (
  id               char(32) PRIMARY KEY,
  system           text NOT NULL CHECK (system IN ('test', 'live')),
  entity_id        char(32) REFERENCES entities (id),
  payment_brand    text,
  currency         char(3),
  connector_id     text NOT NULL,
  credential_names text[] NOT NULL DEFAULT '{}',
  data_key_id      char(32),
  sealed_credentials bytea,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  disabled_at      timestamptz,
  CHECK ((data_key_id IS NULL) = (sealed_credentials IS NULL))
);
-- Two enabled routes for the same entity, brand and currency would make the choice arbitrary.
CREATE UNIQUE INDEX connector_routes_scope_idx
  ON connector_routes (system, COALESCE(entity_id, ''), COALESCE(payment_brand, ''), COALESCE(currency, ''))
  WHERE disabled_at IS NULL;

-- The route that carried a payment: its captures, refunds, reversals and status queries use the
-- same connector and (current) credentials. NULL for the test system's internal simulator.
ALTER TABLE transactions ADD COLUMN route_id char(32);

-- The claim of the Idempotency-Key a transaction was created under (idempotency_keys.claim_id,
-- random, new for every fresh use of a key): the unique index makes "never twice" a property of
-- the database, even when a retry takes over the key of a request that died.
ALTER TABLE transactions ADD COLUMN idempotency_claim_id char(32);
CREATE UNIQUE INDEX transactions_idempotency_claim_idx ON transactions (idempotency_claim_id) WHERE idempotency_claim_id IS NOT NULL;

-- Pending transactions are few at any time; the resolution sweep finds them through this index.
CREATE INDEX transactions_pending_idx ON transactions (created_at) WHERE status = 'pending';

-- An in-flight Idempotency-Key is held under a lease its request renews while it runs; a retry
-- after the lease ran out knows the first request is gone and takes the claim over (same
-- claim_id), finding the transaction the first request wrote, if any.
ALTER TABLE idempotency_keys ADD COLUMN lease_until timestamptz;
ALTER TABLE idempotency_keys ADD COLUMN claim_id char(32);

-- The resolution of pending transactions: one row per transaction the sweep found still pending
-- after the first delay. The status job asks the connector on a back-off schedule; the row keeps
-- what happened, and how it ended (status query, horizon, or an operator with a reason).
CREATE TABLE pending_checks (
  transaction_id  char(32) PRIMARY KEY REFERENCES transactions (id),
  entity_id       char(32) NOT NULL REFERENCES entities (id),
  attempts        integer NOT NULL DEFAULT 0,
  last_checked_at timestamptz,
  last_answer     text,
  next_check_at   timestamptz NOT NULL,
  resolved_at     timestamptz,
  resolved_by     text CHECK (resolved_by IN ('status', 'horizon', 'operator', 'outcome')),
  resolved_code   text,
  reason          text,
  created_at      timestamptz NOT NULL
);
CREATE INDEX pending_checks_open_idx ON pending_checks (next_check_at) WHERE resolved_at IS NULL;

-- The sweep is one durable job that re-plans itself; written here so that exactly one exists,
-- whatever number of processes start.
-- Due from the start, whatever clock the gateway (or a test) keeps.
INSERT INTO jobs (kind, payload, run_at, created_at) VALUES ('sweep-pending', '{}', '2000-01-01T00:00:00Z', now());
