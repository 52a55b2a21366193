-- An entity's own throttling limit: requests each of its access tokens may make per
-- THROTTLE_WINDOW_MS, in place of the gateway's THROTTLE_MAX_REQUESTS. NULL: the gateway's limit.
-- Bounded like THROTTLE_MAX_REQUESTS (load-config.ts).
ALTER TABLE entities ADD COLUMN throttle_max_requests integer CHECK (throttle_max_requests BETWEEN 1 AND 10000000);
