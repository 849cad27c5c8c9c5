-- Exact duplicates are refused per writer: the same content from two agents of a tenant is two
-- memories (two agents observing one fact is evidence), and a 409 or duplicate_of only ever
-- names the caller's own writer's memory, never another agent's private one.
DROP INDEX IF EXISTS memories_content_unique;
CREATE UNIQUE INDEX memories_content_unique
  ON memories (tenant_id, coalesce(fleet_id, ''), agent_id, content_hash) WHERE deleted_at IS NULL;
