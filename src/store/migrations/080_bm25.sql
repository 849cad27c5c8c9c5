-- BM25 ranking for the keyword leg (pg_textsearch: inverse document frequency and length
-- normalisation, which Postgres's ts_rank lacks). Created only where the extension is available
-- (the embedded database loads it; a Postgres server may not have it): the search service looks
-- for the index at start and otherwise keeps ranking with ts_rank × idf from planner statistics.
-- Matching stays on search_tsv (GIN); the index scores the matched rows' content.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_textsearch') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_textsearch;
      EXECUTE 'CREATE INDEX memories_bm25 ON memories USING bm25 (content) WITH (text_config = ''english'')';
    EXCEPTION WHEN OTHERS THEN
      RAISE NOTICE 'pg_textsearch unavailable (%): keyword ranking falls back to ts_rank with idf', SQLERRM;
    END;
  END IF;
END
$$;
