-- The local receivers (loopback host and port, e.g. 'localhost:4242') an entity's webhooks may be
-- sent to on the test system, so a merchant can develop against a receiver on the gateway's own
-- machine without an operator changing WEBHOOK_ALLOWED_ADDRESSES and restarting. Normalised,
-- comma-separated; empty: none. Ignored on the live system (docs/webhooks.md, "Local receivers").
ALTER TABLE entities ADD COLUMN local_webhook_receivers text NOT NULL DEFAULT '';
