-- The relations a memory is evidence of are found through its entity links (a relation's subject
-- is always an entity its evidence memories link), no longer through a GIN index over every
-- evidence array: each upsert of a relation re-indexed its whole evidence list (up to 100 ids),
-- about half of the upsert's time in bulk writes, and more as the lists grow.
CREATE OR REPLACE FUNCTION graph_adjust_mentions(t text, mem uuid, d integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE entities e SET mention_count = greatest(e.mention_count + d, 0)
  FROM entity_links l
  WHERE l.tenant_id = t AND l.memory_id = mem AND e.tenant_id = t AND e.id = l.entity_id;
  UPDATE relations r SET mention_count = greatest(r.mention_count + d, 0)
  WHERE r.tenant_id = t
    AND r.subject_entity_id IN (SELECT l.entity_id FROM entity_links l WHERE l.tenant_id = t AND l.memory_id = mem)
    AND r.evidence_memory_ids @> ARRAY[mem];
END
$$;
DROP INDEX IF EXISTS relations_evidence;
