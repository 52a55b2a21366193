-- Shopper redirects: one row per time a payment (or a standalone 3-D Secure authentication) sends
-- the shopper's browser away, to a provider's page or an issuer's challenge, and waits for the
-- shopper to come back. The id is random (128 bits) and is the capability in the link: a link
-- works for its own payment only, and only while the row is open. Completion and expiry both move
-- the row out of 'open' with one conditional UPDATE, so exactly one of them wins.
CREATE TABLE shopper_redirects (
  id                 char(32) PRIMARY KEY,
  entity_id          char(32) NOT NULL REFERENCES entities (id),
  transaction_id     char(32) REFERENCES transactions (id),
  authentication_id  char(32),
  purpose            text NOT NULL CHECK (purpose IN ('provider', 'challenge')),
  state              text NOT NULL CHECK (state IN ('open', 'completing', 'completed', 'expired')),
  shopper_result_url text NOT NULL,
  locale             text,
  -- What the gateway needs to go on after a challenge: the connector request without the card
  -- (brand, amounts, billing, standing instruction, 3-D Secure ids …). Never a card number.
  resume             json NOT NULL DEFAULT '{}',
  -- The card of a challenged payment, sealed by the vault until the payment is authorised, then
  -- wiped: the acquirer needs it after the shopper comes back (PCI DSS allows keeping the CVV
  -- until authorisation, encrypted).
  data_key_id        char(32),
  sealed_method      bytea,
  -- The shopper's choice on a simulated page, kept for the record.
  choice             text,
  created_at         timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL,
  ended_at           timestamptz,
  CHECK ((transaction_id IS NULL) <> (authentication_id IS NULL)),
  CHECK ((data_key_id IS NULL) = (sealed_method IS NULL))
);
CREATE INDEX shopper_redirects_open_idx ON shopper_redirects (expires_at) WHERE state = 'open';
CREATE INDEX shopper_redirects_transaction_idx ON shopper_redirects (transaction_id) WHERE transaction_id IS NOT NULL;

-- Standalone 3-D Secure authentications (POST /v1/threeDSecure): not payments, so not in
-- transactions; the response JSON is what GET /v1/threeDSecure/{id} answers.
CREATE TABLE three_d_secure_authentications (
  id          char(32) PRIMARY KEY,
  entity_id   char(32) NOT NULL REFERENCES entities (id),
  status      text NOT NULL CHECK (status IN ('success', 'pending', 'rejected')),
  result_code text NOT NULL,
  response    json NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
ALTER TABLE shopper_redirects ADD CONSTRAINT shopper_redirects_authentication_fk
  FOREIGN KEY (authentication_id) REFERENCES three_d_secure_authentications (id);

-- Whether the entity's payments must be authenticated by 3-D Secure: never, if-enrolled (the
-- default: enrolled cards are authenticated, others go on), always, or above:<amount>:<currency>.
ALTER TABLE entities ADD COLUMN three_d_secure text NOT NULL DEFAULT 'if-enrolled';

-- The expiry of redirects nobody completed: one durable job that re-plans itself.
INSERT INTO jobs (kind, payload, run_at, created_at) VALUES ('expire-redirects', '{}', '2000-01-01T00:00:00Z', now());
