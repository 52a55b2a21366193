-- A route's fallback, set only by the operator: where a new payment goes when the route's acquirer
-- did not process it at all (no connection could be opened, a technical refusal such as "issuer
-- or switch inoperative"). Never used once the acquirer may have approved (no answer, a timeout):
-- the router and create-payment only fall back on a declined answer that says nothing was processed.
ALTER TABLE connector_routes ADD COLUMN fallback_route_id char(32) REFERENCES connector_routes (id);
