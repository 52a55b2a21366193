-- The index of pending rows, narrow again for every payment; wide only for payments pending long
-- (docs/performance.md, "What the indexes cost a payment").
--
-- Migration 062 widened the index of pending rows with every column a search filters by, so that
-- a search chose the matching pending rows from the index alone: read from the table, twenty
-- thousand pending rows scattered over months took seconds from a cold cache. But every payment
-- enters that index with its pending row, and the wide entry (about 380 bytes against 24) cost the
-- payment path 2–4 % more CPU. The rows a search cannot afford to read from the table are the old
-- ones (an acquirer down for a day); a young pending row is recent, in memory, and resolved within
-- moments. So:
--
-- * transactions_pending_idx (created_at, id) INCLUDE (long_pending): every pending row, narrow, as
--   before 062 (its readers, the pending sweep, the backlog, the overview, the pending queue, use
--   its first column). The flag in it lets the search list the young pending rows from the index
--   alone: the long-pending rows among them are skipped without a visit to the table (an
--   index-only scan, once vacuum has marked their pages all-visible);
-- * long_pending: set by the pending sweep (src/jobs/resolve-pending.ts, once a minute) on a row
--   still pending after the connector's timeout (CONNECTOR_TIMEOUT_MS, 30 s by default), when no
--   request waits for its acquirer any more; never cleared, and meaningless once the row is decided;
-- * transactions_long_pending_search_idx: 062's wide index, for those rows only.
--
-- The search reads pending rows as two parts: long_pending through the wide index alone, the rest
-- listed from the narrow index and then read from the table (src/storage/repositories/payment-search.ts).
-- It is right whatever the sweep has marked; only its speed depends on the sweep.
--
-- Large tables: ADD COLUMN with a constant default does not rewrite the table. Build the indexes
-- by hand first with CREATE INDEX CONCURRENTLY under the same names, mark the old pending rows
-- (UPDATE … SET long_pending = true WHERE status = 'pending' AND created_at < now() - interval
-- '30 seconds'), then drop the old index concurrently (docs/console.md, "Upgrading a large
-- database"); IF NOT EXISTS and IF EXISTS then find the work done.
ALTER TABLE transactions ADD COLUMN IF NOT EXISTS long_pending boolean NOT NULL DEFAULT false;
-- The default connector timeout; the sweep marks by the configured one from then on.
UPDATE transactions SET long_pending = true WHERE status = 'pending' AND created_at < now() - interval '30 seconds';
CREATE INDEX IF NOT EXISTS transactions_pending_idx ON transactions (created_at, id) INCLUDE (long_pending) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS transactions_long_pending_search_idx ON transactions (created_at, id)
  INCLUDE (entity_id, connector_id, short_id, amount_minor, result_code, search_terms) WHERE status = 'pending' AND long_pending;
DROP INDEX IF EXISTS transactions_pending_search_idx;
-- What the planner knows of the flag: among all rows it is nearly always false, and PostgreSQL
-- would take the young pending rows (status = 'pending' AND NOT long_pending) for every pending
-- row; a search of a merchant's people then priced the wrong plan cheaper (chooseStrategy in
-- payment-search.ts: 3 to 5 s instead of 70 ms at ten million rows). Statistics of the two
-- columns together tell it how many pending rows are young.
CREATE STATISTICS IF NOT EXISTS transactions_status_long_pending (mcv) ON status, long_pending FROM transactions;
