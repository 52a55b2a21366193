-- The console's payment detail (issue 31) reads a payment's notifications and the schedule run that
-- made it by transaction id. Without these indexes each opening of a payment scanned both tables.
-- Partial: only rows that name a transaction are indexed (a notification of a registration, a
-- skipped run name none). A PAYMENT notification is written only when somebody listens, and a run
-- row only per schedule firing, so the payment path pays one index entry per notification at most.
CREATE INDEX notifications_transaction_idx ON notifications (transaction_id) WHERE transaction_id IS NOT NULL;
CREATE INDEX schedule_runs_transaction_idx ON schedule_runs (transaction_id) WHERE transaction_id IS NOT NULL;
-- The settlement records matched to a payment's family (its settled line, chargebacks, their
-- reversals all name the payment in matched_ids). Written by the daily ingest only, never on the
-- payment path.
CREATE INDEX settlement_records_matched_idx ON settlement_records USING gin (matched_ids);
