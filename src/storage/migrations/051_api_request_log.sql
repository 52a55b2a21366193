-- The merchant's recent API requests (docs/console.md, "Request log"): what a developer reads to
-- learn why a request was refused without asking the operator. No bodies, no query strings: the
-- method, the path as the log shows it (card-number-like digits masked), the status, the result
-- code and the time taken. Written in batches off the request path; kept REQUEST_LOG_RETENTION_DAYS.
CREATE TABLE api_request_log (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  entity_id       char(32) NOT NULL,
  at              timestamptz NOT NULL,
  method          text NOT NULL,
  path            text NOT NULL,
  status          smallint NOT NULL,
  result_code     text,
  duration_ms     integer NOT NULL,
  request_id      text NOT NULL,
  transaction_id  text,
  -- The access token the request came with: a credential's last use is its newest row here.
  token_id        char(32)
);
CREATE INDEX api_request_log_entity_at_idx ON api_request_log (entity_id, at DESC, id DESC);
CREATE INDEX api_request_log_at_idx ON api_request_log (at);
CREATE INDEX api_request_log_token_idx ON api_request_log (token_id, at DESC);

-- The one durable job that deletes requests older than the retention (jobs/prune-request-log.ts).
INSERT INTO jobs (kind, payload, run_at, created_at) VALUES ('prune-request-log', '{}', '2000-01-01T00:00:00Z', now());
