-- One row per transaction (PA, DB, CD, CP, RV, RF, later RG, CB ...); a referencing row points at
-- its parent. Money is in integer minor units (hundredths of the wire amount).
CREATE TABLE transactions (
  id                      char(32) PRIMARY KEY,
  entity_id               char(32) NOT NULL REFERENCES entities (id),
  parent_id               char(32) REFERENCES transactions (id),
  payment_type            text NOT NULL,
  status                  text NOT NULL CHECK (status IN ('success', 'pending', 'rejected')),
  result_code             text NOT NULL,
  amount_minor            bigint NOT NULL CHECK (amount_minor >= 0),
  currency                char(3) NOT NULL,
  -- Running totals of the children; pending children keep their amount reserved.
  captured_minor          bigint NOT NULL DEFAULT 0,
  refunded_minor          bigint NOT NULL DEFAULT 0,
  capture_count           integer NOT NULL DEFAULT 0,
  max_captures            integer,
  capture_closed          boolean NOT NULL DEFAULT false,
  refund_closed           boolean NOT NULL DEFAULT false,
  reversed_at             timestamptz,
  -- sequence=FINAL on a capture or refund: it closed its parent.
  is_final                boolean NOT NULL DEFAULT false,
  payment_brand           text,
  payment_method          text,
  merchant_transaction_id text,
  short_id                text NOT NULL,
  connector_id            text NOT NULL,
  connector_references    jsonb NOT NULL DEFAULT '{}',
  scheme_transaction_id   text,
  -- The response body as the API shows it (never a card number or CVV).
  response                json NOT NULL,
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL,
  CHECK (captured_minor >= 0 AND refunded_minor >= 0)
);
CREATE INDEX transactions_entity_created_idx ON transactions (entity_id, created_at DESC);
CREATE INDEX transactions_entity_merchant_tx_idx ON transactions (entity_id, merchant_transaction_id) WHERE merchant_transaction_id IS NOT NULL;
CREATE INDEX transactions_short_id_idx ON transactions (short_id);
CREATE INDEX transactions_parent_idx ON transactions (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX transactions_scheme_tx_idx ON transactions (scheme_transaction_id) WHERE scheme_transaction_id IS NOT NULL;

-- Idempotency-Key: the first request with a key stores its response; repeats get it back.
CREATE TABLE idempotency_keys (
  entity_id       char(32) NOT NULL,
  key             text NOT NULL,
  request_hash    char(64) NOT NULL,
  state           text NOT NULL CHECK (state IN ('in_flight', 'done')),
  response_status integer,
  response_body   json,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (entity_id, key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);
