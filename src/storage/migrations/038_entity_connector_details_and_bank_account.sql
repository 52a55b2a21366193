-- Whether the entity's payment answers (POST, GET, query, webhooks) show the connector's details
-- in resultDetails (ConnectorTxID1..3, AcquirerResponse, clearingInstituteName). The stored
-- response always keeps them; only what the merchant is shown is filtered. On by default, as
-- OPPWA's test system answers (docs/compatibility.md, "Connector details").
ALTER TABLE entities ADD COLUMN show_connector_details boolean NOT NULL DEFAULT true;

-- The merchant's own bank account, into which methods such as PREPAYMENT have the shopper pay:
-- answered as merchant.bankAccount.* (core.md, Payment response). A channel without one uses its
-- merchant's. Not card data: an account the merchant publishes to its shoppers.
ALTER TABLE entities ADD COLUMN payout_bank_account jsonb;
