-- A memory's context (src/core/passages/indexer.ts) is the few memories its writer wrote just
-- before it in the same fleet and run (or, without a run, among its memories without one): these
-- indexes find them newest first, reading only those rows. The earlier (tenant, agent, write_seq)
-- index left the planner to read every memory of the writer for each memory indexed. Two partial
-- indexes, as an index ordered by write_seq after `run_id IS NULL` is not read in that order.
DROP INDEX IF EXISTS memories_writer_seq;
CREATE INDEX memories_writer_run_seq ON memories (tenant_id, agent_id, (coalesce(fleet_id, '')), run_id, write_seq)
  WHERE deleted_at IS NULL AND run_id IS NOT NULL;
CREATE INDEX memories_writer_norun_seq ON memories (tenant_id, agent_id, (coalesce(fleet_id, '')), write_seq)
  WHERE deleted_at IS NULL AND run_id IS NULL;
