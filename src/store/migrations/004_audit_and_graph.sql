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

-- Mention counts of entities and relations count memories that are not deleted: a soft delete
-- (or a restore) adjusts them, and so does removing a memory that was not deleted. Links and
-- evidence stay; reads skip deleted memories. (Relation counts beyond the 100 evidence ids kept
-- are not adjusted.)
CREATE FUNCTION graph_adjust_mentions(t text, mem uuid, d integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE entities e SET mention_count = greatest(e.mention_count + d, 0)
  FROM entity_links l
  WHERE l.tenant_id = t AND l.memory_id = mem AND e.tenant_id = t AND e.id = l.entity_id;
  UPDATE relations r SET mention_count = greatest(r.mention_count + d, 0)
  WHERE r.tenant_id = t AND r.evidence_memory_ids @> ARRAY[mem];
END
$$;

CREATE FUNCTION memories_graph_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.deleted_at IS NULL THEN PERFORM graph_adjust_mentions(OLD.tenant_id, OLD.id, -1); END IF;
    RETURN OLD;
  END IF;
  IF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
    PERFORM graph_adjust_mentions(NEW.tenant_id, NEW.id, -1);
  ELSIF OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL THEN
    PERFORM graph_adjust_mentions(NEW.tenant_id, NEW.id, 1);
  END IF;
  RETURN NEW;
END
$$;

-- Before a delete, while the memory's links still exist (they go with it by cascade).
CREATE TRIGGER memories_graph_counts_delete BEFORE DELETE ON memories
  FOR EACH ROW EXECUTE FUNCTION memories_graph_counts();
CREATE TRIGGER memories_graph_counts_soft_delete AFTER UPDATE OF deleted_at ON memories
  FOR EACH ROW EXECUTE FUNCTION memories_graph_counts();
