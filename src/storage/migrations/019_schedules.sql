-- Recurring schedules (SD): a registration charged on a Quartz cron plan. The schedule's id is
-- the id of the transaction that created it (SD, or RS for the plan a reschedule starts), so
-- /v1/query lists every schedule operation. Money in minor units, as in transactions.
-- status: active (it has a next fire time and the job that makes it), ended (end_reason says why).
CREATE TABLE schedules (
  id                char(32) PRIMARY KEY REFERENCES transactions (id),
  entity_id         char(32) NOT NULL REFERENCES entities (id),
  registration_id   char(32) NOT NULL REFERENCES registrations (id),
  status            text NOT NULL CHECK (status IN ('active', 'ended')),
  end_reason        text CHECK (end_reason IN ('descheduled', 'rescheduled', 'completed', 'deregistered', 'instruction_expired')),
  payment_type      text NOT NULL CHECK (payment_type IN ('DB', 'PA')),
  amount_minor      bigint NOT NULL CHECK (amount_minor >= 0),
  currency          char(3) NOT NULL,
  -- The plan: seven Quartz fields, the time zone they are read in, the window runs are made in.
  expression        text NOT NULL,
  time_zone         text NOT NULL,
  starts_at         timestamptz NOT NULL,
  ends_at           timestamptz,
  -- What every run sends besides amount and type: standingInstruction.*, descriptor,
  -- merchantTransactionId, testMode; and the job.* fields as sent (notice, duration, name).
  run_request       jsonb NOT NULL,
  job               jsonb NOT NULL,
  -- The firing in progress: its fire time, its attempt (0, then the retries of a soft decline)
  -- and the one job that makes it. Only the job named here may move the schedule on, so a job
  -- that runs twice (its worker died after the schedule moved on) finds itself stale.
  fire_at           timestamptz,
  attempt           integer NOT NULL DEFAULT 0,
  job_id            bigint,
  -- The test clock (test system only): the schedule's time runs this far ahead of the real
  -- time, and the fire times up to played_until were passed by an advance, never "missed".
  clock_offset_ms   bigint NOT NULL DEFAULT 0,
  played_until      timestamptz,
  replaced_by       char(32),
  response          json NOT NULL,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  ended_at          timestamptz,
  CHECK ((status = 'ended') = (ended_at IS NOT NULL)),
  CHECK (status = 'ended' OR fire_at IS NOT NULL)
);
CREATE INDEX schedules_registration_idx ON schedules (registration_id, created_at);
CREATE INDEX schedules_entity_created_idx ON schedules (entity_id, created_at DESC);

-- One row per attempt of a fire time: the payment it made (or why none was made). The key makes
-- a fire time's attempt happen once; the payment's idempotency claim is derived from the same key.
CREATE TABLE schedule_runs (
  schedule_id     char(32) NOT NULL REFERENCES schedules (id),
  fire_at         timestamptz NOT NULL,
  attempt         integer NOT NULL,
  outcome         text NOT NULL CHECK (outcome IN ('success', 'pending', 'declined', 'skipped', 'failed')),
  transaction_id  char(32) REFERENCES transactions (id),
  result_code     text,
  -- The real time the run was made (fire_at is in the schedule's own time).
  ran_at          timestamptz NOT NULL,
  PRIMARY KEY (schedule_id, fire_at, attempt)
);
