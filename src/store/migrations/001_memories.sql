-- Memories, API keys and the bookkeeping the service needs from day one.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE IF NOT EXISTS loci_meta (
  key text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE memories (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  fleet_id text,
  agent_id text NOT NULL,
  memory_type text NOT NULL DEFAULT 'fact',
  title text,
  content text NOT NULL,
  content_hash text NOT NULL,
  weight double precision NOT NULL DEFAULT 0.5,
  source_uri text,
  run_id text,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  deleted_at timestamptz,
  subject_entity_id uuid,
  predicate text,
  object_value text,
  ts_valid_start timestamptz,
  ts_valid_end timestamptz,
  status text NOT NULL DEFAULT 'active',
  visibility text NOT NULL DEFAULT 'scope_team',
  recall_count integer NOT NULL DEFAULT 0,
  last_recalled_at timestamptz,
  supersedes_id uuid,
  embedding vector({{EMBEDDING_DIM}}),
  embedding_model text,
  -- "<attempt id>:<index>" of a bulk write; unique per tenant so a retried attempt never duplicates.
  client_request_id text,
  search_tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('english', coalesce(title, '') || ' ' || content)
  ) STORED
);

-- Exact duplicates are refused atomically (409 / duplicate_content).
CREATE UNIQUE INDEX memories_content_unique
  ON memories (tenant_id, coalesce(fleet_id, ''), content_hash) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX memories_client_request_unique
  ON memories (tenant_id, client_request_id) WHERE client_request_id IS NOT NULL;

-- One index per list sort (tenant first: every query is tenant-scoped), id as tie-breaker.
CREATE INDEX memories_tenant_created ON memories (tenant_id, created_at DESC, id DESC);
CREATE INDEX memories_tenant_weight ON memories (tenant_id, weight, id);
CREATE INDEX memories_tenant_type ON memories (tenant_id, memory_type, created_at DESC);
CREATE INDEX memories_tenant_agent ON memories (tenant_id, agent_id, created_at DESC);
CREATE INDEX memories_tenant_status ON memories (tenant_id, status, created_at DESC);
CREATE INDEX memories_tenant_recall ON memories (tenant_id, recall_count, id);
CREATE INDEX memories_tenant_fleet ON memories (tenant_id, fleet_id, created_at DESC);
CREATE INDEX memories_tenant_expires ON memories (tenant_id, expires_at, id);
CREATE INDEX memories_tenant_deleted ON memories (tenant_id, deleted_at, id);
CREATE INDEX memories_created ON memories (created_at DESC, id DESC);
CREATE INDEX memories_run ON memories (tenant_id, run_id) WHERE run_id IS NOT NULL;
CREATE INDEX memories_supersedes ON memories (supersedes_id) WHERE supersedes_id IS NOT NULL;
CREATE INDEX memories_subject ON memories (tenant_id, subject_entity_id, predicate) WHERE subject_entity_id IS NOT NULL;
CREATE INDEX memories_tsv ON memories USING gin (search_tsv);
CREATE INDEX memories_embedding ON memories USING hnsw (embedding vector_cosine_ops);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  tenant_id text NOT NULL,
  agent_id text,
  trust_level integer NOT NULL DEFAULT 1,
  name text,
  readable_tenants text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at DESC);
