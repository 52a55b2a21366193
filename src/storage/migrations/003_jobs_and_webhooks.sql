-- Background jobs: the outbox and the queue in one table. A job is written in the same
-- transaction as the state change that causes it; workers claim due rows with
-- FOR UPDATE SKIP LOCKED, hold them under a lease (locked_by, locked_until) and delete them when
-- done. A lease that runs out (the worker died) is swept back to unlocked.
CREATE TABLE jobs (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind          text NOT NULL,
  payload       jsonb NOT NULL DEFAULT '{}',
  run_at        timestamptz NOT NULL,
  locked_by     text,
  locked_until  timestamptz,
  -- Failures of the handler itself (an exception), not planned retries such as a webhook's.
  failure_count integer NOT NULL DEFAULT 0,
  last_error    text,
  -- Set when the handler kept failing; such a job stays for inspection and is never claimed.
  failed_at     timestamptz,
  created_at    timestamptz NOT NULL,
  CHECK ((locked_by IS NULL) = (locked_until IS NULL))
);
-- The claim walks this index in run_at order and touches only claimable rows.
CREATE INDEX jobs_due_idx ON jobs (run_at, id) WHERE locked_by IS NULL AND failed_at IS NULL;
CREATE INDEX jobs_lease_idx ON jobs (locked_until) WHERE locked_by IS NOT NULL;

-- A merchant's or channel's webhook. The secret is the AES-256 key of its notifications (64 hex);
-- it must be readable to encrypt, so it is kept as is and never shown after creation.
-- status: pending (created, waiting for its test notification to be acknowledged), active,
-- inactive (deactivated by the operator). Deleted webhooks keep their row for the attempt history.
CREATE TABLE webhooks (
  id           char(32) PRIMARY KEY,
  entity_id    char(32) NOT NULL REFERENCES entities (id),
  url          text NOT NULL,
  secret       char(64) NOT NULL,
  status       text NOT NULL CHECK (status IN ('pending', 'active', 'inactive')),
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  activated_at timestamptz,
  deleted_at   timestamptz
);
CREATE INDEX webhooks_entity_idx ON webhooks (entity_id) WHERE deleted_at IS NULL;

-- One row per event: the exact JSON body every receiver gets (kept as text so its key order is
-- the API's), with the stable id receivers de-duplicate on.
CREATE TABLE notifications (
  id         char(32) PRIMARY KEY,
  entity_id  char(32) NOT NULL REFERENCES entities (id),
  type       text NOT NULL,
  action     text,
  body       text NOT NULL,
  created_at timestamptz NOT NULL
);

-- One notification to one target: a webhook, or a request's notificationUrl (url set instead).
CREATE TABLE webhook_deliveries (
  id               char(32) PRIMARY KEY,
  notification_id  char(32) NOT NULL REFERENCES notifications (id),
  webhook_id       char(32) REFERENCES webhooks (id),
  url              text,
  purpose          text NOT NULL CHECK (purpose IN ('event', 'test')),
  status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
  attempt_count    integer NOT NULL DEFAULT 0,
  first_attempt_at timestamptz,
  next_attempt_at  timestamptz,
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  CHECK ((webhook_id IS NULL) <> (url IS NULL))
);
CREATE INDEX webhook_deliveries_notification_idx ON webhook_deliveries (notification_id);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at) WHERE webhook_id IS NOT NULL;

-- Every attempt: when, the HTTP status or the transport error, and how long the receiver took.
CREATE TABLE webhook_attempts (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id  char(32) NOT NULL REFERENCES webhook_deliveries (id),
  webhook_id   char(32) REFERENCES webhooks (id),
  trigger      text NOT NULL CHECK (trigger IN ('worker', 'test', 'resend')),
  attempted_at timestamptz NOT NULL,
  http_status  integer,
  error        text,
  latency_ms   integer NOT NULL,
  acknowledged boolean NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);
CREATE INDEX webhook_attempts_webhook_idx ON webhook_attempts (webhook_id, id) WHERE webhook_id IS NOT NULL;
