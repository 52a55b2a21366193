-- Merchants and channels are entities; a channel belongs to a merchant.
CREATE TABLE entities (
  id          char(32) PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$'),
  kind        text NOT NULL CHECK (kind IN ('merchant', 'channel')),
  name        text NOT NULL,
  merchant_id char(32) REFERENCES entities (id),
  created_at  timestamptz NOT NULL,
  CHECK ((kind = 'channel') = (merchant_id IS NOT NULL))
);
CREATE INDEX entities_merchant_idx ON entities (merchant_id) WHERE merchant_id IS NOT NULL;

-- Access tokens are shown once; only their SHA-256 is kept.
CREATE TABLE access_tokens (
  id          char(32) PRIMARY KEY,
  entity_id   char(32) NOT NULL REFERENCES entities (id),
  token_hash  char(64) NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX access_tokens_entity_idx ON access_tokens (entity_id);
