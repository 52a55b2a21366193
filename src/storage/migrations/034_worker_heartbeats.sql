-- Each job worker process (in a gateway, or `npm run worker`) beats here every few seconds.
-- GET /health/ready of every gateway asks for a recent beat: background jobs run somewhere.
-- Times are the database's own (now()), so hosts with skewed clocks agree on a beat's age.
-- A worker that stops deletes its row; rows of workers that died are pruned by the others.
CREATE TABLE worker_heartbeats (
  worker_id text PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  last_beat_at timestamptz NOT NULL DEFAULT now()
);
