-- What the risk engine decided for a payment, when any rule fired, is kept in the payment's own
-- row ({decision, score, fired, ruleSetVersion}; operator only, never in a response), written by
-- the pending row's INSERT. A table of its own cost every checked payment whose rules fired a
-- second row and an index entry (docs/performance.md, eighth session).
ALTER TABLE transactions ADD COLUMN risk_evaluation jsonb;

UPDATE transactions t
   SET risk_evaluation = jsonb_build_object('decision', e.decision, 'score', e.score, 'fired', e.fired, 'ruleSetVersion', e.rule_set_version)
  FROM risk_evaluations e
 WHERE e.transaction_id = t.id;

DROP TABLE risk_evaluations;
