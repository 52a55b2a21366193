-- The console's overview (docs/console.md, "Overview"): figures per UTC day, rolled up by a job
-- (jobs/roll-up-overview.ts) from a watermark rather than written with every payment, so the
-- payment path writes nothing more (measured in docs/performance.md).
--
-- One row per UTC day (of created_at), channel or merchant, payment type, status and one
-- breakdown: dimension 'all' keeps the currency and the amount (volume, refunds, chargebacks);
-- 'brand', 'connector' and 'result' (3-D Secure flow ':' result code) count payments (PA, DB)
-- across currencies. The overview adds the rows after the watermark, read live from transactions.
CREATE TABLE overview_daily (
  day          date NOT NULL,
  entity_id    char(32) NOT NULL REFERENCES entities (id),
  payment_type text NOT NULL,
  currency     text NOT NULL,
  status       text NOT NULL,
  dimension    text NOT NULL CHECK (dimension IN ('all', 'brand', 'connector', 'result')),
  value        text NOT NULL,
  count        bigint NOT NULL,
  amount_minor numeric NOT NULL,
  PRIMARY KEY (day, entity_id, payment_type, currency, status, dimension, value)
);

-- How far the rollup has read: every transaction created before `rolled_until` is in overview_daily.
CREATE TABLE overview_watermark (
  single       boolean PRIMARY KEY DEFAULT true CHECK (single),
  rolled_until timestamptz
);
INSERT INTO overview_watermark (single, rolled_until) VALUES (true, NULL);

-- Transactions the rollup counted while pending, with the state they were counted in: when one
-- changes (its updated_at moves, or a fallback route moved it to another connector), the job takes
-- that state back out and counts the new one.
CREATE TABLE overview_open (
  id           char(32) PRIMARY KEY REFERENCES transactions (id),
  status       text NOT NULL,
  connector_id text NOT NULL,
  result_value text NOT NULL,
  updated_at   timestamptz NOT NULL
);

-- The one durable job that moves the watermark on (jobs/roll-up-overview.ts).
INSERT INTO jobs (kind, payload, run_at, created_at) VALUES ('roll-up-overview', '{}', '2000-01-01T00:00:00Z', now());
