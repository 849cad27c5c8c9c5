-- Documents: JSON documents grouped in collections, per tenant and optional fleet.
-- `text` holds the concatenated text fields; its head is embedded, all of it is keyword-indexed.

-- A tsvector is capped at 1 MB, which text full of distinct tokens (ids, hashes, base64)
-- passes well below the 1 MB document cap. Rather than failing the write, index the
-- longest head of the text that fits.
CREATE FUNCTION documents_tsv(body text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  n integer := length(body);
BEGIN
  LOOP
    BEGIN
      RETURN to_tsvector('english'::regconfig, left(body, n));
    EXCEPTION WHEN program_limit_exceeded THEN
      n := n * 3 / 4;
    END;
  END LOOP;
END
$$;

CREATE TABLE documents (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  fleet_id text,
  collection text NOT NULL,
  doc_id text NOT NULL,
  data jsonb NOT NULL,
  text text NOT NULL DEFAULT '',
  embedding vector({{EMBEDDING_DIM}}),
  embedding_model text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  search_tsv tsvector GENERATED ALWAYS AS (documents_tsv(text)) STORED
);

-- One document per (tenant, fleet or none, collection, doc_id); the upsert targets this index.
CREATE UNIQUE INDEX documents_key
  ON documents (tenant_id, (coalesce(fleet_id, '')), collection, doc_id);
-- Listing and paging a collection, and counting per collection.
CREATE INDEX documents_collection ON documents (tenant_id, collection, doc_id);
CREATE INDEX documents_data ON documents USING gin (data jsonb_path_ops);
CREATE INDEX documents_tsv ON documents USING gin (search_tsv);
CREATE INDEX documents_embedding ON documents USING hnsw (embedding vector_cosine_ops);
