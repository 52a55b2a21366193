-- The W3C traceparent of the request that wrote a job (its trace and span), so that the job's run
-- and what it does (a webhook delivery) appear in that request's trace. NULL when the gateway
-- does not trace (OTEL_* unset): nothing is written or read then. Adding a nullable column
-- without a default rewrites nothing.
ALTER TABLE jobs ADD COLUMN trace_parent text;
