-- The audit log (docs/console.md, "The audit log"): every change a person or program makes through
-- the console, the admin API or the command line, written in the same transaction as the change.
-- Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE) and tamper-evident: each entry's hash
-- covers its content and the previous entry's hash, so an edited, removed or reordered row breaks
-- the chain that `gateway audit verify` recomputes.
CREATE TABLE audit_log (
  -- Given out under audit_head's row lock: no gaps, and the chain's order is the order of seq.
  seq            bigint PRIMARY KEY,
  at             timestamptz NOT NULL,
  actor_kind     text NOT NULL CHECK (actor_kind IN ('user', 'admin-api', 'cli', 'system')),
  actor          text NOT NULL,
  actor_user_id  char(32),
  role           text,
  address        text,
  -- Whose data the change touched (a merchant's admins read their own entries); null: the operator's.
  merchant_id    char(32),
  action         text NOT NULL,
  target_kind    text NOT NULL,
  target_id      text NOT NULL,
  before         jsonb,
  after          jsonb,
  prev_hash      char(64) NOT NULL,
  hash           char(64) NOT NULL
);
CREATE INDEX audit_log_merchant_idx ON audit_log (merchant_id, seq DESC);
CREATE INDEX audit_log_target_idx ON audit_log (target_kind, target_id);

-- The chain's head: one row, locked by every append, so appends are serialised and gapless.
CREATE TABLE audit_head (
  only_row  boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  seq       bigint NOT NULL,
  hash      char(64) NOT NULL
);
INSERT INTO audit_head (only_row, seq, hash) VALUES (true, 0, repeat('0', 64));

-- One line: the migration runner splits statements at a ';' that ends a line (migrate.ts).
CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
