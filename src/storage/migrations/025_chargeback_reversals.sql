-- A chargeback is reversed at most once (issue 29): the CHARGEBACK_REVERSAL record that reversed a
-- CB names it, and no second record may name the same CB, whatever the order or duplication of
-- records, files and runs. What a reversal gives back is what its CB took (refundable_taken_minor).
ALTER TABLE settlement_records ADD COLUMN reversed_chargeback_id char(32) REFERENCES transactions (id);
CREATE UNIQUE INDEX settlement_records_one_reversal_idx ON settlement_records (reversed_chargeback_id) WHERE reversed_chargeback_id IS NOT NULL;

-- Reversals applied before this migration: the n-th reversal of a payment reversed its n-th
-- chargeback. A reversal beyond its payment's chargebacks keeps no CB (it was applied in excess).
WITH cbs AS (
  SELECT r.chargeback_id AS cb_id, t.parent_id, row_number() OVER (PARTITION BY t.parent_id ORDER BY t.created_at, t.id) AS n
    FROM settlement_records r JOIN transactions t ON t.id = r.chargeback_id
   WHERE r.record_type = 'CHARGEBACK' AND t.payment_type = 'CB'),
     crs AS (
  SELECT r.id AS record_id, t.parent_id, row_number() OVER (PARTITION BY t.parent_id ORDER BY t.created_at, t.id) AS n
    FROM settlement_records r JOIN transactions t ON t.id = r.chargeback_id
   WHERE r.record_type = 'CHARGEBACK_REVERSAL' AND t.payment_type = 'CR')
UPDATE settlement_records s SET reversed_chargeback_id = cbs.cb_id
  FROM crs JOIN cbs ON cbs.parent_id = crs.parent_id AND cbs.n = crs.n
 WHERE s.id = crs.record_id;

-- Refunds and chargebacks together never exceed what was paid or captured: the operations check it
-- under the parent's row lock, the database refuses any write that would break it. NOT VALID: rows
-- written before are not scanned (none can break it), every new write is checked.
ALTER TABLE transactions ADD CONSTRAINT transactions_refunded_within_amount CHECK (refunded_minor <= amount_minor) NOT VALID;
