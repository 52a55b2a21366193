-- A merchant's rules for its console people (merchant-security.manage): whether every one of them
-- must sign in with a second factor (operators always must). No row: not required.
CREATE TABLE merchant_console_security (
  merchant_id             char(32) PRIMARY KEY REFERENCES entities (id),
  require_second_factor   boolean NOT NULL,
  updated_at              timestamptz NOT NULL
);
