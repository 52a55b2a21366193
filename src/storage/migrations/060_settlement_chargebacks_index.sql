-- The console's chargebacks page (issue 32) reads an operator's chargebacks and reversals of every
-- merchant by settlement day: without this index it would read every settled record of those days.
CREATE INDEX settlement_records_chargebacks_idx ON settlement_records (settlement_date, merchant_id)
  WHERE record_type IN ('CHARGEBACK', 'CHARGEBACK_REVERSAL');
