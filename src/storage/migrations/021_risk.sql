-- Risk checks (docs/risk.md). Configuration is versioned: a rule set is never updated, a new
-- version is written; list changes are recorded in risk_changes. Who, what, when, for each.

-- An entity's rule set (JSON, domain/risk/parse-rule-set.ts); the highest version is in force.
-- A channel without one uses its merchant's; an entity with none, the built-in default.
CREATE TABLE risk_rule_sets (
  entity_id   char(32) NOT NULL REFERENCES entities (id),
  version     integer NOT NULL CHECK (version > 0),
  rules       jsonb NOT NULL,
  changed_by  text NOT NULL,
  changed_at  timestamptz NOT NULL,
  PRIMARY KEY (entity_id, version)
);

-- Blacklist and whitelist entries of a merchant (its channels inherit them) or of one channel.
-- value: card and iban as the vault's keyed fingerprint (never the number), email lower case,
-- ip in its canonical form, bin digits, country ISO alpha-2. shown: what the operator sees
-- (a card as BIN and last four digits).
CREATE TABLE risk_list_entries (
  entity_id   char(32) NOT NULL REFERENCES entities (id),
  list        text NOT NULL CHECK (list IN ('black', 'white')),
  kind        text NOT NULL CHECK (kind IN ('card', 'bin', 'iban', 'email', 'ip', 'country')),
  value       text NOT NULL,
  shown       text NOT NULL,
  reason      text,
  added_by    text NOT NULL,
  added_at    timestamptz NOT NULL,
  PRIMARY KEY (entity_id, kind, value, list)
);

CREATE TABLE risk_changes (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  entity_id   char(32) NOT NULL REFERENCES entities (id),
  changed_by  text NOT NULL,
  changed_at  timestamptz NOT NULL,
  action      text NOT NULL,
  detail      jsonb NOT NULL
);
CREATE INDEX risk_changes_by_entity ON risk_changes (entity_id, id);

-- Velocity: one insert-only row per key of an attempt (card, e-mail, IP, customer), keyed by a
-- hash of (merchant, kind, value); counted by an index range scan over (key, time), so no row is
-- updated by concurrent payments and any number of processes count the same history.
-- Declines are not written here: they are the attempts whose transaction was rejected.
CREATE TABLE risk_attempts (
  key_hash        text NOT NULL,
  at              timestamptz NOT NULL,
  amount_minor    bigint NOT NULL,
  currency        char(3) NOT NULL,
  transaction_id  char(32) NOT NULL
);
CREATE INDEX risk_attempts_by_key ON risk_attempts (key_hash, at) INCLUDE (amount_minor, currency, transaction_id);
CREATE INDEX risk_attempts_by_time ON risk_attempts (at);

-- What the engine decided for a payment, when any rule fired (operator only, never in a response).
CREATE TABLE risk_evaluations (
  transaction_id  char(32) PRIMARY KEY,
  entity_id       char(32) NOT NULL REFERENCES entities (id),
  decision        text NOT NULL CHECK (decision IN ('accept', 'review', 'threeDSecure', 'reject')),
  score           integer NOT NULL CHECK (score BETWEEN -99999 AND 99999),
  fired           jsonb NOT NULL,
  rule_set_version integer,
  created_at      timestamptz NOT NULL
);

-- The one durable job that deletes attempts older than the longest window (jobs/prune-risk-attempts.ts).
INSERT INTO jobs (kind, payload, run_at, created_at) VALUES ('prune-risk-attempts', '{}', '2000-01-01T00:00:00Z', now());
