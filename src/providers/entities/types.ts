// Entity extraction: proper-noun spans typed where the NLP can tell.
export const ENTITY_TYPES = ['person', 'organization', 'place', 'product', 'date', 'other'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface ExtractedEntity {
  /** Surface form as written, e.g. "Dr. Ada Lovelace". */
  name: string;
  /** Normalised key used to upsert per tenant: lowercased, trimmed, titles and punctuation folded. */
  normalized: string;
  type: EntityType;
}

/** A subject–predicate–object statement found in text. */
export interface ExtractedRelation {
  subject: string; // normalized entity name
  predicate: string; // lower_snake verb phrase, e.g. "works_at", "lives_in"
  object: string; // normalized entity name or literal value
  objectIsEntity: boolean;
}

export interface Extraction {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
}

export interface EntityExtractor {
  /** `urgent`: a reader waits on it (a search's query); it goes ahead of queued write work. */
  extract(text: string, opts?: { urgent?: boolean }): Promise<Extraction>;
  /** Loads the models now instead of on the first extract(). */
  init?(): Promise<void>;
  close?(): Promise<void>;
}
