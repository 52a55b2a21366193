-- The console's people (docs/console.md, "People and access"). A person belongs to one merchant
-- (merchant_id) or is an operator (merchant_id null, an operator role). The password is kept only
-- as an argon2id hash; the TOTP secret is sealed by the vault (as route credentials are); recovery
-- codes and session ids only as SHA-256 hashes.
CREATE TABLE console_users (
  id                     char(32) PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$'),
  email                  text NOT NULL,
  password_hash          text NOT NULL,
  -- The password was given by someone else (the command line, an administrator): change it at sign-in.
  password_must_change   boolean NOT NULL DEFAULT false,
  role                   text NOT NULL,
  merchant_id            char(32) REFERENCES entities (id),
  -- The TOTP secret, sealed under vault data key totp_data_key_id; enabled once a first code confirmed it.
  totp_data_key_id       char(32) REFERENCES vault_keys (id),
  totp_sealed            bytea,
  totp_enabled_at        timestamptz,
  -- The last TOTP time-step accepted: a code is accepted once (replay refused).
  totp_last_step         bigint,
  -- Failed sign-ins since the last success, how many times the account was locked in a row, until when.
  failed_sign_ins        integer NOT NULL DEFAULT 0,
  lock_count             integer NOT NULL DEFAULT 0,
  locked_until           timestamptz,
  created_at             timestamptz NOT NULL,
  disabled_at            timestamptz,
  CHECK ((merchant_id IS NULL) = (role IN ('operator-admin', 'operator-support', 'operator-read-only')))
);
-- One account per address, whatever its case.
CREATE UNIQUE INDEX console_users_email_idx ON console_users (lower(email));
CREATE INDEX console_users_merchant_idx ON console_users (merchant_id) WHERE merchant_id IS NOT NULL;

-- Ten per person, shown once; each is used once.
CREATE TABLE console_recovery_codes (
  user_id    char(32) NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  code_hash  char(64) NOT NULL,
  used_at    timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- Server-side sessions: the cookie holds a random id, the table its SHA-256 only (a copy of the
-- table signs nobody in). stage: 'second-factor' until the code was given, then 'signed-in'.
CREATE TABLE console_sessions (
  id_hash       char(64) PRIMARY KEY,
  user_id       char(32) NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  stage         text NOT NULL CHECK (stage IN ('second-factor', 'signed-in')),
  created_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  address       text NOT NULL,
  user_agent    text NOT NULL
);
CREATE INDEX console_sessions_user_idx ON console_sessions (user_id);
