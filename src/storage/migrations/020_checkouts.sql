-- Checkouts (POST /v1/checkouts): a payment the merchant's server prepared for the widget. The id
-- (32 upper-case hex, a dot, a host suffix) is the capability the shopper's browser holds: the
-- widget's calls carry no other credential, so it is random (128 bits) and lives 30 minutes.
-- `parameters` are the merchant's accepted request parameters (never account data: the catalogue
-- refuses card and bank fields on a checkout), merged with the widget's at payment time.
CREATE TABLE checkouts (
  id                 varchar(48) PRIMARY KEY,
  entity_id          char(32) NOT NULL REFERENCES entities (id),
  -- 'payment' (POST …/payment) or 'registration' (POST …/registration: store the account only).
  purpose            text NOT NULL CHECK (purpose IN ('payment', 'registration')),
  parameters         json NOT NULL,
  -- open: payable (no attempt yet, or the last one was declined); attempting: an attempt is under
  -- way or waits for its shopper or acquirer (its transaction says how it ended); completed: paid
  -- or registered, never payable again.
  state              text NOT NULL CHECK (state IN ('open', 'attempting', 'completed')),
  -- The latest attempt: a transactions id (payment) or a registrations id (registration).
  attempt_id         char(32),
  attempt_started_at timestamptz,
  attempts           integer NOT NULL DEFAULT 0,
  -- Where the latest attempt sends its shopper back: the merchant's shopperResultUrl, else the
  -- widget form's action. The 29-minute callback goes there.
  shopper_result_url text,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL,
  -- The merchant's server asked for the result (GET …/payment or …/registration).
  status_fetched_at  timestamptz,
  -- The 29-minute shopper result callback: waiting until due, then queued (a job sends it) or
  -- not needed (no attempt, status fetched, or no shopperResultUrl).
  callback_state     text NOT NULL DEFAULT 'waiting' CHECK (callback_state IN ('waiting', 'queued', 'not-needed')),
  callback_due_at    timestamptz NOT NULL
);
CREATE INDEX checkouts_callback_due_idx ON checkouts (callback_due_at) WHERE callback_state = 'waiting';
CREATE INDEX checkouts_entity_idx ON checkouts (entity_id, created_at);

-- The sweep that queues due callbacks: one durable job that re-plans itself.
INSERT INTO jobs (kind, payload, run_at, created_at) VALUES ('queue-checkout-callbacks', '{}', '2000-01-01T00:00:00Z', now());
