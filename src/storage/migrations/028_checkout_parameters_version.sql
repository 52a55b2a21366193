-- The version of a checkout's parameters: every merchant update (POST /v1/checkouts/{id}) bumps it,
-- and a widget attempt's claim takes the checkout only at the version it read. Without it an
-- update that landed between the widget's read and its claim was acknowledged while the attempt
-- charged the old amount (issue 29, item 5): now exactly one of the two wins, and the other is
-- refused with 800.700.100.
ALTER TABLE checkouts ADD COLUMN parameters_version integer NOT NULL DEFAULT 1;
