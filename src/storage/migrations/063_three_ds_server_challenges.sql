-- The browser challenge through the gateway's own 3DS server (issue 37). The ACS's RReq names its
-- challenge only by the EMV 3DS transaction ids; the redirect keeps threeDSServerTransID in its
-- resume (open-redirect.ts, ProtocolChallengeResume). This finds the redirect without reading
-- every row, and the uniqueness makes one transaction id name one challenge. The simulator's
-- challenges have no threeDSServerTransID and are not in the index.
--
-- Large tables: build it by hand first with CREATE UNIQUE INDEX CONCURRENTLY under the same name
-- (docs/console.md, "Upgrading a large database"); IF NOT EXISTS then finds the work done.
CREATE UNIQUE INDEX IF NOT EXISTS shopper_redirects_three_ds_server_trans_idx
  ON shopper_redirects ((resume->>'threeDSServerTransID'))
  WHERE resume->>'threeDSServerTransID' IS NOT NULL;
