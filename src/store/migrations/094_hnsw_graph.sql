-- The vector indexes hold 8 neighbours per node, built from 32 candidates (pgvector's defaults
-- are 16 and 64). Every insert also rewrites its neighbours' lists, so its cost grows with the
-- square of m, and a memory adds one to ten rows to these indexes (itself, its sentence and
-- context units, a long memory's passages). On the embedded database, real 512-d sentence vectors
-- into a 100k-row index: 2.7 ms per insert at (16, 64), 1.3 ms at (8, 32); the ten nearest a
-- search finds (ef_search 40) were the exact ten for 99.6 % and 99.4 % of them.
SET LOCAL maintenance_work_mem = '256MB';
DROP INDEX memories_embedding;
CREATE INDEX memories_embedding ON memories USING hnsw (embedding vector_cosine_ops) WITH (m = 8, ef_construction = 32);
DROP INDEX memory_passages_embedding;
CREATE INDEX memory_passages_embedding ON memory_passages USING hnsw (embedding vector_cosine_ops) WITH (m = 8, ef_construction = 32);
DROP INDEX documents_embedding;
CREATE INDEX documents_embedding ON documents USING hnsw (embedding vector_cosine_ops) WITH (m = 8, ef_construction = 32);
