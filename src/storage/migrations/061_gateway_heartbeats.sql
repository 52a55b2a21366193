-- Gateway processes beat in worker_heartbeats too, so the console's system status lists every
-- process (jobs/heartbeat.ts). role says which: readiness's "job-worker" check reads workers' rows
-- only. version: the package version the process runs (a rolling upgrade shows both).
ALTER TABLE worker_heartbeats ADD COLUMN role text NOT NULL DEFAULT 'worker' CHECK (role IN ('worker', 'gateway'));
ALTER TABLE worker_heartbeats ADD COLUMN version text;
