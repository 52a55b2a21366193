-- A PAYMENT notification may name its transaction instead of carrying a body: the body is built
-- from the transaction's stored response when it is delivered. A payment nobody listens to then
-- costs no body at all, and one somebody listens to keeps its response once, not twice.
ALTER TABLE notifications ADD COLUMN transaction_id char(32) REFERENCES transactions (id);
ALTER TABLE notifications ALTER COLUMN body DROP NOT NULL;
ALTER TABLE notifications ADD CONSTRAINT notifications_body_or_transaction CHECK ((body IS NULL) <> (transaction_id IS NULL));
