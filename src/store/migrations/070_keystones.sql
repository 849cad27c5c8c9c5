-- Keystones (spec 2.4, 4.6): mandatory policy rules, one per (tenant, doc_id). scope says whom a
-- rule binds: the whole tenant, one fleet, or one agent (in one fleet, or in all of them when
-- fleet_id is null). weight is the bucket low/med/high stored as 25/50/100.
CREATE TABLE keystones (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  doc_id text NOT NULL,
  scope text NOT NULL CHECK (scope IN ('tenant', 'fleet', 'agent')),
  fleet_id text,
  agent_id text,
  title text NOT NULL,
  content text NOT NULL,
  weight smallint NOT NULL CHECK (weight IN (25, 50, 100)),
  author_user_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((scope = 'tenant' AND fleet_id IS NULL AND agent_id IS NULL)
      OR (scope = 'fleet' AND fleet_id IS NOT NULL AND agent_id IS NULL)
      OR (scope = 'agent' AND agent_id IS NOT NULL)),
  UNIQUE (tenant_id, doc_id)
);

-- The merged list reads a tenant's rules heaviest first.
CREATE INDEX keystones_by_weight ON keystones (tenant_id, weight DESC, updated_at DESC);
