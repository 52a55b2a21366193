-- The manual review of a payment the risk rules sent to review (docs/risk.md, "Manual review"):
-- one row per decided payment, written in the transaction that decides it (an acceptance under
-- the payment's row lock; a rejection with the reversal's reservation), so a payment is decided
-- once: the primary key refuses a second decision, whoever makes it.
CREATE TABLE risk_reviews (
  transaction_id  char(32) PRIMARY KEY REFERENCES transactions (id),
  entity_id       char(32) NOT NULL REFERENCES entities (id),
  decision        text NOT NULL CHECK (decision IN ('accepted', 'rejected')),
  reason          text NOT NULL,
  decided_by      text NOT NULL,
  decided_at      timestamptz NOT NULL,
  -- The reversal a rejection made (its own transaction row, with its own result).
  reversal_id     char(32) REFERENCES transactions (id)
);

-- The queue: the payments the engine decided 'review', oldest first; a partial index, so the
-- queue costs nothing on the payments no rule sent to review.
CREATE INDEX transactions_risk_review_idx ON transactions (created_at) WHERE (risk_evaluation ->> 'decision') = 'review';
