-- The console's schedules and pending-payments pages (issue 32).
-- Active schedules in the order of their next fire time: the schedules list's first order, read
-- without sorting every schedule ever made.
CREATE INDEX IF NOT EXISTS schedules_active_fire_idx ON schedules (fire_at, id) WHERE status = 'active';
-- A pending transaction's status-check job, found by its transaction: the queue shows when the
-- next check runs (or whether it is running, or was given up) from the job itself. Partial, so
-- only resolve-pending jobs pay for it.
CREATE INDEX IF NOT EXISTS jobs_resolve_pending_tx_idx ON jobs ((payload ->> 'transactionId')) WHERE kind = 'resolve-pending';
