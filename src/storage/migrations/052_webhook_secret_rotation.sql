-- A webhook's secret rotated with an overlap (docs/webhooks.md, "Rotating the secret"). A receiver
-- decrypts an AES-GCM notification with one key at a time, so the gateway never sends under two:
-- the new secret waits in next_secret, shown once, while deliveries keep the old one; it replaces
-- the old one when the merchant confirms the receiver holds it, or at next_secret_switch_at (the
-- end of the overlap) by the 'switch-webhook-secret' job.
ALTER TABLE webhooks
  ADD COLUMN next_secret text,
  ADD COLUMN next_secret_created_at timestamptz,
  ADD COLUMN next_secret_switch_at timestamptz;
