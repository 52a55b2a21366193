-- The vault's data keys, each wrapped (AES-256-GCM) by a master key from configuration. The
-- master key id is stored with every wrapped key so old and new master keys can coexist while a
-- rotation re-wraps the rows. One data key per day ('data') and one look-up key ('lookup', the
-- HMAC key of account fingerprints); the unique index lets concurrent processes agree on them.
CREATE TABLE vault_keys (
  id            char(32) PRIMARY KEY,
  purpose       text NOT NULL CHECK (purpose IN ('data', 'lookup')),
  period        text NOT NULL,
  master_key_id text NOT NULL,
  wrapped_key   bytea NOT NULL,
  created_at    timestamptz NOT NULL,
  rewrapped_at  timestamptz,
  UNIQUE (purpose, period)
);
CREATE INDEX vault_keys_master_key_idx ON vault_keys (master_key_id);

-- Stored payment data (tokenization). Only what PCI DSS allows in clear is in `account` (BIN,
-- last four digits, holder, expiry; for bank accounts last four, BIC, country, holder); the card
-- or account number is in `sealed_account`, encrypted under the data key `data_key_id`.
-- A CVV is never stored. Deregistration wipes the sealed data, the fingerprint and the holder.
-- status: active; pending (created by a payment whose outcome is not known yet); deregistered.
CREATE TABLE registrations (
  id                       char(32) PRIMARY KEY,
  entity_id                char(32) NOT NULL REFERENCES entities (id),
  status                   text NOT NULL CHECK (status IN ('active', 'pending', 'deregistered')),
  method                   text NOT NULL CHECK (method IN ('card', 'bankAccount', 'tokenAccount', 'virtualAccount')),
  payment_brand            text NOT NULL,
  account                  jsonb NOT NULL,
  data_key_id              char(32) REFERENCES vault_keys (id),
  sealed_account           bytea,
  -- Keyed HMAC of the account number: finds a card's registrations without decrypting.
  fingerprint              char(64),
  -- Scheme reference of the registration's initial CIT, or of the initial transaction of a
  -- recurring migration: merchant-initiated payments with this registration send it.
  initial_scheme_reference text,
  initial_transaction_id   char(32),
  -- The payment with createRegistration=true that created it, if any.
  source_transaction_id    char(32),
  recurring_migration      jsonb,
  -- The registration as the API shows it (never a card number or CVV).
  response                 json NOT NULL,
  deregistration_id        char(32),
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL,
  deregistered_at          timestamptz,
  CHECK ((status = 'deregistered') = (deregistered_at IS NOT NULL)),
  CHECK (status = 'deregistered' OR method = 'virtualAccount' OR sealed_account IS NOT NULL)
);
CREATE INDEX registrations_entity_created_idx ON registrations (entity_id, created_at DESC);
CREATE INDEX registrations_fingerprint_idx ON registrations (fingerprint) WHERE fingerprint IS NOT NULL;
CREATE INDEX registrations_scheme_reference_idx ON registrations (initial_scheme_reference) WHERE initial_scheme_reference IS NOT NULL;
