-- Live (not deleted) memories per tenant, kept by triggers, so the write quota check reads one
-- row instead of counting the tenant's rows (≈10 ms per write at 100k rows).
CREATE TABLE tenant_usage (
  tenant_id text PRIMARY KEY,
  live_memories bigint NOT NULL DEFAULT 0
);

INSERT INTO tenant_usage (tenant_id, live_memories)
  SELECT tenant_id, count(*) FROM memories WHERE deleted_at IS NULL GROUP BY tenant_id;

-- Inserts and deletes: once per statement, over its transition table (a bulk insert of 100
-- rows updates the counter once).
CREATE FUNCTION tenant_usage_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tenant_usage AS u (tenant_id, live_memories)
    SELECT tenant_id, count(*) FROM new_rows WHERE deleted_at IS NULL GROUP BY tenant_id
  ON CONFLICT (tenant_id) DO UPDATE SET live_memories = u.live_memories + EXCLUDED.live_memories;
  RETURN NULL;
END $$;

CREATE FUNCTION tenant_usage_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tenant_usage u SET live_memories = u.live_memories - d.n
    FROM (SELECT tenant_id, count(*) AS n FROM old_rows WHERE deleted_at IS NULL GROUP BY tenant_id) d
    WHERE u.tenant_id = d.tenant_id;
  RETURN NULL;
END $$;

-- Updates: per row, and only for rows whose liveness changes (soft delete, restore), so the
-- frequent updates that leave deleted_at alone (recall counts, status) cost nothing.
CREATE FUNCTION tenant_usage_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tenant_usage AS u (tenant_id, live_memories)
    VALUES (NEW.tenant_id, CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END)
  ON CONFLICT (tenant_id) DO UPDATE SET live_memories = u.live_memories + EXCLUDED.live_memories;
  RETURN NULL;
END $$;

CREATE TRIGGER memories_usage_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tenant_usage_inserted();
CREATE TRIGGER memories_usage_delete AFTER DELETE ON memories
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tenant_usage_deleted();
CREATE TRIGGER memories_usage_update AFTER UPDATE OF deleted_at ON memories
  FOR EACH ROW WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)) EXECUTE FUNCTION tenant_usage_updated();
