-- Skills workflow: per-tenant organisation settings, the reject poison table and the Forge
-- tick lease. Skills themselves are documents of the collection `skills`.

-- Organisation settings per tenant; `settings` holds only what was patched (defaults live in code).
CREATE TABLE org_settings (
  tenant_id text PRIMARY KEY,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Rejected skill fingerprints. A live row (expires_at in the future) fails the poison gate;
-- rows are kept after expiry as the record of who rejected what and why.
CREATE TABLE skill_rejections (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  fingerprint text NOT NULL,
  slug text NOT NULL,
  reason text NOT NULL,
  rejected_by text,
  rejected_at timestamptz NOT NULL,
  cooloff_days integer NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX skill_rejections_fp ON skill_rejections (tenant_id, fingerprint, expires_at DESC);

-- One Forge tick at a time per tenant, across replicas: a tick takes the lease (or finds it
-- held and skips); a lease older than its time limit is taken over (a crashed tick).
CREATE TABLE skill_forge_runs (
  tenant_id text PRIMARY KEY,
  running_since timestamptz,
  last_tick_at timestamptz,
  last_report jsonb
);
