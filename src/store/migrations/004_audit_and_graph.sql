-- Audit events per tenant (cross-tenant reads and the like), and the index the knowledge-graph
-- listing walks.

CREATE TABLE audit_events (
  id uuid PRIMARY KEY,
  -- The tenant the event is about; for a cross-tenant read, the tenant that was read.
  tenant_id text NOT NULL,
  type text NOT NULL,
  -- Who acted: the key's own tenant and agent, and the key.
  actor_tenant_id text,
  actor_agent_id text,
  actor_key_id uuid,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Listing newest first: per tenant, per tenant and type, and across tenants (admin).
CREATE INDEX audit_events_tenant_time ON audit_events (tenant_id, created_at DESC, id DESC);
CREATE INDEX audit_events_tenant_type_time ON audit_events (tenant_id, type, created_at DESC, id DESC);
CREATE INDEX audit_events_time ON audit_events (created_at DESC, id DESC);

-- Entities of a tenant, most mentioned first, whatever their type (GET /entities, GET /graph).
CREATE INDEX entities_tenant_mentions ON entities (tenant_id, mention_count DESC, id);
