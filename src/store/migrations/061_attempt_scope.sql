-- Bulk attempt ids belong to the key that sent them: another key reusing an attempt id neither
-- learns the ids stored under it nor has its own items dropped as duplicate attempts.
ALTER TABLE memories ADD COLUMN attempt_scope text;
DROP INDEX IF EXISTS memories_client_request_unique;
CREATE UNIQUE INDEX memories_client_request_unique
  ON memories (tenant_id, coalesce(attempt_scope, ''), client_request_id) WHERE client_request_id IS NOT NULL;
