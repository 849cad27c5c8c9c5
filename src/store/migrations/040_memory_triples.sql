-- Subject–predicate–object triples of each memory, as the contradiction detector reads them
-- (the writer's own subject_entity_id/predicate/object_value, else triples extracted from the
-- content). An index only: the detector looks up earlier memories about the same subject and
-- slot here, then judges the pair from the memories themselves. Written after the memory
-- commits, replaced when its content changes.
CREATE TABLE memory_triples (
  memory_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
  ord smallint NOT NULL,
  tenant_id text NOT NULL,
  -- Normalised subject: the writer's entity (its name when the entity is known) or the extracted noun phrase.
  subject text NOT NULL,
  -- Predicates that compare with each other share a slot (lives_in and located_in: location).
  slot text NOT NULL,
  predicate text NOT NULL,
  object_norm text NOT NULL,
  negated boolean NOT NULL DEFAULT false,
  -- writer | content
  source text NOT NULL,
  PRIMARY KEY (memory_id, ord)
);
CREATE INDEX memory_triples_subject ON memory_triples (tenant_id, subject, slot);
