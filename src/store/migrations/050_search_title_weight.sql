-- The title counts less than the content in the keyword leg: title lexemes carry weight D,
-- content lexemes weight A, and the leg ranks with a weights array whose D (and C, B) entry is
-- keyword.titleWeight of the search configuration (A is 1). Matching ignores the weights.
-- A generated column cannot change its expression in place: drop it (and its index) and add it
-- again; the stored values are recomputed for every row.
DROP INDEX IF EXISTS memories_tsv;
ALTER TABLE memories DROP COLUMN search_tsv;
ALTER TABLE memories ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', coalesce(title, '')), 'D') || setweight(to_tsvector('english', content), 'A')
) STORED;
CREATE INDEX memories_tsv ON memories USING gin (search_tsv);
