-- Migration 048's three search indexes, entered once per payment instead of twice
-- (docs/performance.md, "What the indexes cost a payment").
--
-- A payment's row is written twice: pending, then with its outcome. The outcome's UPDATE is never
-- heap-only (it changes status, which transactions_pending_idx is defined by), so each index gets
-- an entry for both versions of the row, the GIN index's ten-odd terms included. Partial on
-- status <> 'pending', these three get one: at the outcome. The search finds the pending rows
-- through the index of pending rows instead (src/storage/repositories/payment-search.ts, which
-- must say status <> 'pending' in so many words for PostgreSQL to use the three).
--
-- That index (every payment's INSERT enters it already) now carries what a search filters by, so
-- the pending rows matching a search are chosen from it alone: they lie scattered over the
-- table, and a search that read each to test its terms took seconds from a cold cache when
-- twenty thousand were pending. It replaces transactions_pending_idx (created_at), whose
-- readers (pending checks, the backlog, the overview) use its first column as before.
--
-- Large tables: build these by hand first with CREATE INDEX CONCURRENTLY under the same names,
-- then drop the old ones concurrently (docs/console.md, "Upgrading a large database"); IF NOT
-- EXISTS and IF EXISTS then find the work done.
CREATE INDEX IF NOT EXISTS transactions_decided_search_terms_idx ON transactions USING gin (search_terms) WHERE status <> 'pending';
CREATE INDEX IF NOT EXISTS transactions_decided_amount_idx ON transactions (amount_minor, id) WHERE status <> 'pending';
CREATE INDEX IF NOT EXISTS transactions_decided_result_code_idx ON transactions (result_code) WHERE status <> 'pending';
CREATE INDEX IF NOT EXISTS transactions_pending_search_idx ON transactions (created_at, id)
  INCLUDE (entity_id, connector_id, short_id, amount_minor, result_code, search_terms) WHERE status = 'pending';
DROP INDEX IF EXISTS transactions_pending_idx;
DROP INDEX IF EXISTS transactions_search_terms_idx;
DROP INDEX IF EXISTS transactions_amount_idx;
DROP INDEX IF EXISTS transactions_result_code_idx;
