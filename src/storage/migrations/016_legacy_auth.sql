-- Whether an entity accepts OPPWA's authentication.* fields in place of a Bearer header. On by
-- default: the gateway is a drop-in for existing clients, and a credential sent as fields is the
-- same secret as the Bearer token; an operator turns it off once an entity's clients send Bearer.
ALTER TABLE entities ADD COLUMN legacy_auth boolean NOT NULL DEFAULT true;
