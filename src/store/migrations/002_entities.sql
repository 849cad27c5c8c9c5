-- Knowledge graph per tenant: entities extracted from memories, the links from a memory to
-- the entities it mentions, and subject–predicate–object relations with their evidence.

CREATE TABLE entities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL,
  -- First surface form seen; later spellings go to aliases.
  name text NOT NULL,
  normalized_name text NOT NULL,
  entity_type text NOT NULL,
  aliases text[] NOT NULL DEFAULT '{}',
  mention_count integer NOT NULL DEFAULT 0,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
-- The upsert key of extraction, and the lookup by name for search and listing.
CREATE UNIQUE INDEX entities_key ON entities (tenant_id, normalized_name, entity_type);
CREATE INDEX entities_tenant_type ON entities (tenant_id, entity_type, mention_count DESC);

CREATE TABLE entity_links (
  memory_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
  entity_id uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  tenant_id text NOT NULL,
  -- subject | object | mention: the strongest part the entity plays in the memory.
  role text NOT NULL DEFAULT 'mention',
  -- Surface form as written in this memory.
  mention text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (memory_id, entity_id)
);
-- Entity → memories (entity search leg of recall, graph listing).
CREATE INDEX entity_links_entity ON entity_links (tenant_id, entity_id);
-- Memory → entities, tenant-scoped (record shaping).
CREATE INDEX entity_links_memory ON entity_links (tenant_id, memory_id);

CREATE TABLE relations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL,
  subject_entity_id uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  predicate text NOT NULL,
  object_entity_id uuid REFERENCES entities (id) ON DELETE CASCADE,
  object_value text,
  -- 'e:<entity id>' or 'v:<literal>': one upsert key whichever kind of object it is.
  object_key text NOT NULL,
  -- Memories stating the relation (most recent last, capped by the writer).
  evidence_memory_ids uuid[] NOT NULL DEFAULT '{}',
  -- How many memories state it (evidence withdrawn when a memory's content changes).
  mention_count integer NOT NULL DEFAULT 0,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  CHECK (object_entity_id IS NOT NULL OR object_value IS NOT NULL)
);
CREATE UNIQUE INDEX relations_key ON relations (tenant_id, subject_entity_id, predicate, object_key);
CREATE INDEX relations_object ON relations (tenant_id, object_entity_id) WHERE object_entity_id IS NOT NULL;
-- Withdrawing a memory's evidence when its content changes.
CREATE INDEX relations_evidence ON relations USING gin (evidence_memory_ids);
