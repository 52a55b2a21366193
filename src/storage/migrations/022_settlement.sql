-- Settlement (docs/settlement.md): what acquirers settled, matched to transactions.

-- Operators group merchants under divisions and PSPs (the reconciliation file's PspId and
-- DivisionId). A merchant's parent is a division or a PSP; a division's parent is a PSP.
ALTER TABLE entities DROP CONSTRAINT entities_kind_check;
ALTER TABLE entities ADD CONSTRAINT entities_kind_check CHECK (kind IN ('psp', 'division', 'merchant', 'channel'));
ALTER TABLE entities ADD COLUMN parent_id char(32) REFERENCES entities (id);
ALTER TABLE entities ADD CONSTRAINT entities_parent_check CHECK (parent_id IS NULL OR kind IN ('division', 'merchant'));

-- Matching looks transactions up by the connector's first reference.
-- The expression alone, not partial: ANALYZE then keeps statistics of it, and the planner looks a
-- batch's thousand references up instead of scanning the table (a partial index had none).
CREATE INDEX transactions_connector_tx1_idx ON transactions ((connector_references ->> 'ConnectorTxID1'));
-- The simulator settles a day's transactions: it walks them in (created_at, id) order.
CREATE INDEX transactions_created_idx ON transactions (created_at, id);

-- A merchant's share of one acquirer batch: the unit of the summary report.
CREATE TABLE settlement_aggregations (
  id                 char(32) PRIMARY KEY,
  merchant_id        char(32) NOT NULL REFERENCES entities (id),
  connector_id       text NOT NULL,
  batch_id           text NOT NULL,
  settlement_date    date NOT NULL,
  settlement_currency char(3) NOT NULL,
  clearing_institute text NOT NULL,
  created_at         timestamptz NOT NULL,
  UNIQUE (connector_id, batch_id, merchant_id)
);
CREATE INDEX settlement_aggregations_merchant_date_idx ON settlement_aggregations (merchant_id, settlement_date);

-- One line of an acquirer's settlement file. (connector_id, record_id) is unique: a file ingested
-- again inserts nothing and so matches, charges back and notifies nothing twice.
CREATE TABLE settlement_records (
  id                      char(32) PRIMARY KEY,
  connector_id            text NOT NULL,
  record_id               text NOT NULL,
  aggregation_id          char(32) REFERENCES settlement_aggregations (id),
  merchant_id             char(32) REFERENCES entities (id),
  record_type             text NOT NULL CHECK (record_type IN ('SETTLED', 'CHARGEBACK', 'CHARGEBACK_REVERSAL', 'FEE')),
  status                  text NOT NULL CHECK (status IN ('SUCCESS', 'FAILED')),
  settlement_date         date NOT NULL,
  transaction_date        timestamptz NOT NULL,
  clearing_institute      text NOT NULL,
  clearing_institute_merchant_id text,
  batch_id                text NOT NULL,
  -- The file's PaymentType when the acquirer named it (BATCH, AUTH_FEE …), else the gateway's type.
  payment_type            text NOT NULL,
  amount_minor            bigint NOT NULL,
  currency                char(3) NOT NULL,
  settlement_amount_minor bigint NOT NULL,
  settlement_currency     char(3) NOT NULL,
  fx_rate                 text NOT NULL,
  fee_minor               bigint NOT NULL,
  fee_currency            char(3) NOT NULL,
  connector_references    jsonb NOT NULL DEFAULT '{}',
  merchant_transaction_id text,
  result_code             text,
  reason_code             text,
  matching_status         text NOT NULL CHECK (matching_status IN ('MATCHED', 'MULTIPLE_MATCHES', 'NOT_MATCHED')),
  matched_ids             text[] NOT NULL DEFAULT '{}',
  -- The CB or CR transaction a matched chargeback or reversal created.
  chargeback_id           char(32) REFERENCES transactions (id),
  -- What a chargeback took from the payment's refundable amount; its reversal gives back as much.
  refundable_taken_minor  bigint,
  ingested_at             timestamptz NOT NULL,
  UNIQUE (connector_id, record_id)
);
CREATE INDEX settlement_records_aggregation_idx ON settlement_records (aggregation_id, transaction_date, id);
CREATE INDEX settlement_records_merchant_day_idx ON settlement_records (merchant_id, settlement_date, id);

-- The simulated acquirer's fees per merchant (the test system); absent, its default fee.
CREATE TABLE settlement_fees (
  entity_id          char(32) PRIMARY KEY REFERENCES entities (id),
  fixed_minor        bigint NOT NULL CHECK (fixed_minor >= 0),
  rate_basis_points  integer NOT NULL CHECK (rate_basis_points BETWEEN 0 AND 10000),
  settlement_currency char(3)
);

-- The days the daily job finished (ingest, files, pushes): it catches up on missed days.
CREATE TABLE settlement_days (
  settlement_date date PRIMARY KEY,
  finished_at     timestamptz NOT NULL
);

-- Who may fetch a merchant's files from the built-in SFTP server: OpenSSH public keys.
CREATE TABLE sftp_keys (
  id          char(32) PRIMARY KEY,
  merchant_id char(32) NOT NULL REFERENCES entities (id),
  public_key  text NOT NULL,
  created_at  timestamptz NOT NULL
);
CREATE INDEX sftp_keys_merchant_idx ON sftp_keys (merchant_id);

-- The daily settlement run: one durable job that plans its own next run.
INSERT INTO jobs (kind, payload, run_at, created_at) VALUES ('settle-day', '{}', '2000-01-01T00:00:00Z', now());

-- Where a merchant's files are also pushed (its own FTP or SFTP server): the address without
-- secret, the password sealed by the vault like route credentials.
CREATE TABLE settlement_push_targets (
  merchant_id     char(32) PRIMARY KEY REFERENCES entities (id),
  url             text NOT NULL,
  data_key_id     char(32) NOT NULL,
  sealed_password bytea NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
