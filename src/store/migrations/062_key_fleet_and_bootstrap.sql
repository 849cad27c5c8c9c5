-- Keys may be bound to a fleet (trust 1 stays in it, trust 2 crosses fleets), and the admin key
-- the service itself set up (admin.key or LOCI_ADMIN_KEY) is marked, so that a new one revokes it.
ALTER TABLE api_keys ADD COLUMN fleet_id text;
ALTER TABLE api_keys ADD COLUMN bootstrap boolean NOT NULL DEFAULT false;
-- Before this migration the bootstrap key was minted as trust 3 named "admin" in the standalone tenant.
UPDATE api_keys SET bootstrap = true WHERE name = 'admin' AND trust_level = 3 AND agent_id IS NULL AND revoked_at IS NULL;
