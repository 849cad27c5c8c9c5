-- Search and recall.

-- The entity leg matches a one-word query term against each word of an entity's name
-- ("Priya" finds "priya raman").
CREATE INDEX entities_name_words ON entities USING gin (string_to_array(normalized_name, ' '));
-- The entity leg reads each named entity's most recent links first and stops after a bounded
-- number: a common entity (thousands of memories) must not cost a scan of all of them.
CREATE INDEX entity_links_entity_recent ON entity_links (tenant_id, entity_id, created_at DESC) INCLUDE (memory_id);

-- Every search and recall updates recall_count and last_recalled_at of the rows it returns.
-- While either column is indexed, each such update writes a new entry into every index of the
-- row, the HNSW index included: 6–10 ms for the ten rows of a search on PGlite at 10k–100k
-- memories. Unindexed, and with room left on each page, the update is HOT (heap-only), touches no
-- index and takes 1–1.5 ms. A list sorted by recall_count then sorts the tenant's rows instead of
-- reading an index.
DROP INDEX memories_tenant_recall;
ALTER TABLE memories SET (fillfactor = 90);
