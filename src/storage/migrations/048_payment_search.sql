-- The console's payment search (docs/console.md, "Payments"; measured in docs/performance.md).
-- What a person searches by that has no column of its own (BIN, last four, holder, customer e-mail
-- and IP live in the response), plus merchantTransactionId across entities and the few values whose
-- rare members a created_at scan would read the whole table to find (currency, brand, payment
-- type), become terms in one text[] column behind one GIN index: a filter is `search_terms @>
-- ARRAY['bin:411111']`, and filters combine inside the one index. Only facts that never change
-- after the insert are terms, so the column is written once, with the row: the gateway makes them
-- (src/domain/payment-search/search-terms.ts); payment_search_terms below makes the same for the
-- rows already there and for INSERTs written in SQL (a schedule's run).
--
-- Large tables: this migration runs in one transaction (the runner's rule), so the backfill holds
-- the rows it updates and the CREATE INDEX statements block writes to transactions while they
-- build (measured at 10 million rows in docs/performance.md). Before upgrading a large
-- installation, run the statements of docs/console.md ("Upgrading a large database") by hand:
-- the column, a batched backfill and CREATE INDEX CONCURRENTLY under these names; the IF NOT
-- EXISTS below then finds them done and the UPDATE only the rows written in between.

-- Free text as it is compared: trimmed, inner whitespace as one space, lower case.
CREATE OR REPLACE FUNCTION payment_search_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(regexp_replace(btrim(value), '\s+', ' ', 'g')) $$;

-- The response is json (its key order kept): read once as jsonb, not parsed again per term.
CREATE OR REPLACE FUNCTION payment_search_terms(response json, merchant_transaction_id text, currency text, payment_brand text, payment_type text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array_remove(ARRAY[
    'bin:' || (r #>> '{card,bin}'),
    'last4:' || (r #>> '{card,last4Digits}'),
    'holder:' || payment_search_text(r #>> '{card,holder}'),
    'email:' || payment_search_text(r #>> '{customer,email}'),
    'ip:' || lower(r #>> '{customer,ip}'),
    'mtid:' || merchant_transaction_id,
    'currency:' || currency,
    'brand:' || payment_brand,
    'type:' || payment_type
  ], NULL) FROM (SELECT response::jsonb AS r) AS parsed $$;

ALTER TABLE transactions ADD COLUMN IF NOT EXISTS search_terms text[];

UPDATE transactions
   SET search_terms = payment_search_terms(response, merchant_transaction_id, currency, payment_brand, payment_type)
 WHERE search_terms IS NULL;

CREATE INDEX IF NOT EXISTS transactions_search_terms_idx ON transactions USING gin (search_terms);
-- Results sorted by amount, and amount ranges.
CREATE INDEX IF NOT EXISTS transactions_amount_idx ON transactions (amount_minor, id);
-- A result code or a result group (a list of codes): the rare ones without a scan.
CREATE INDEX IF NOT EXISTS transactions_result_code_idx ON transactions (result_code);
