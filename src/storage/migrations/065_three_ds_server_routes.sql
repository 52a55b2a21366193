-- 3DS server routes (connector_id 'emv3ds-server', docs/three-d-secure.md): a route that chooses
-- the directory server of an entity's, brand's and currency's payments lives beside the acquirer
-- route with the same scope, so the scope is unique per kind of route, not across both.
DROP INDEX connector_routes_scope_idx;
CREATE UNIQUE INDEX connector_routes_scope_idx
  ON connector_routes (system, (connector_id = 'emv3ds-server'), COALESCE(entity_id, ''), COALESCE(payment_brand, ''), COALESCE(currency, ''))
  WHERE disabled_at IS NULL;
