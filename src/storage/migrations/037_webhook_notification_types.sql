-- The notification types each webhook subscribes to (docs/webhooks.md, "Notification types").
-- A new webhook gets the specification's types (PAYMENT, REGISTRATION) unless it asks for more;
-- the webhooks that exist already were sent every type, and keep getting them, so that no
-- receiver silently loses SCHEDULE or RISK notifications on the upgrade.
ALTER TABLE webhooks ADD COLUMN notification_types text[];
UPDATE webhooks SET notification_types = ARRAY['PAYMENT', 'REGISTRATION', 'SCHEDULE', 'RISK', 'TEST'];
ALTER TABLE webhooks ALTER COLUMN notification_types SET NOT NULL;
ALTER TABLE webhooks ALTER COLUMN notification_types SET DEFAULT ARRAY['PAYMENT', 'REGISTRATION'];
