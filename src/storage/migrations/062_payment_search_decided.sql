-- Migration 048's three search indexes, entered once per payment instead of twice
-- (docs/performance.md, "What the indexes cost a payment").
--
-- A payment's row is written twice: pending, then with its outcome. The outcome's UPDATE is never
-- heap-only (it changes status, which transactions_pending_idx is defined by), so each index gets
-- an entry for both versions of the row, the GIN index's ten-odd terms included. Partial on
-- status <> 'pending', these three get one: at the outcome. The search finds the few pending rows
-- through transactions_pending_idx instead (src/storage/repositories/payment-search.ts, which
-- must say status <> 'pending' in so many words for PostgreSQL to use them).
--
-- Large tables: build these by hand first with CREATE INDEX CONCURRENTLY under the same names,
-- then drop the old ones concurrently (docs/console.md, "Upgrading a large database"); IF NOT
-- EXISTS and IF EXISTS then find the work done.
CREATE INDEX IF NOT EXISTS transactions_decided_search_terms_idx ON transactions USING gin (search_terms) WHERE status <> 'pending';
CREATE INDEX IF NOT EXISTS transactions_decided_amount_idx ON transactions (amount_minor, id) WHERE status <> 'pending';
CREATE INDEX IF NOT EXISTS transactions_decided_result_code_idx ON transactions (result_code) WHERE status <> 'pending';
DROP INDEX IF EXISTS transactions_search_terms_idx;
DROP INDEX IF EXISTS transactions_amount_idx;
DROP INDEX IF EXISTS transactions_result_code_idx;
