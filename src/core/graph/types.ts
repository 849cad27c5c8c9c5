// Records and bounds of the knowledge-graph reads (GET /entities, GET /graph). See docs/graph.md.
import type { EntityType } from '../../providers/entities/types.js';

export { ENTITY_TYPES, type EntityType } from '../../providers/entities/types.js';

export const ENTITY_LIMIT = { min: 1, max: 500, default: 100 } as const;
export const GRAPH_DEPTH = { min: 1, max: 3, default: 1 } as const;
/** Relations returned with a graph: at most this many per entity returned. */
export const RELATIONS_PER_ENTITY = 10;
export const SEARCH_MAX = 200;
/** Evidence memory ids returned per relation (the most recent visible ones). */
export const EVIDENCE_SHOWN = 20;

export interface EntityRecord {
  id: string;
  tenant_id: string;
  /** First surface form seen. */
  name: string;
  entity_type: EntityType;
  /** Other surface forms seen ("Dr. Ada Lovelace" for "Ada Lovelace"), the name excluded. */
  aliases: string[];
  /** Memories of the tenant that mention the entity (not deleted; every visibility and fleet). */
  mention_count: number;
  first_seen_at: string;
  last_seen_at: string;
}

export interface RelationRecord {
  id: string;
  subject_entity_id: string;
  predicate: string;
  /** The object when it is an entity; otherwise null and `object_value` holds it. */
  object_entity_id: string | null;
  object_value: string | null;
  /** Memories of the tenant that state the relation (not deleted; every visibility and fleet). */
  mention_count: number;
  /** Up to 20 memories stating it that the caller can see, newest first. */
  evidence_memory_ids: string[];
  first_seen_at: string;
  last_seen_at: string;
}

/** Relations returned with one entity (GET /entities/{id}), strongest first. */
export const ENTITY_RELATIONS_SHOWN = 50;

/** One entity with what the reader can see around it. */
export interface EntityDetail extends EntityRecord {
  relations: RelationRecord[];
  /** Up to 20 memories mentioning it that the caller can see, newest first. */
  linked_memory_ids: string[];
}

export interface EntityDetailQuery {
  tenant_id?: string;
  fleet_id?: string;
  agent_id?: string;
}

export interface Graph {
  tenant_id: string;
  entities: EntityRecord[];
  relations: RelationRecord[];
  /** Entities or relations were left out to respect the limit. */
  truncated: boolean;
}

export interface EntityQuery {
  tenant_id: string;
  fleet_id?: string;
  agent_id?: string;
  entity_type?: EntityType;
  search?: string;
  limit?: number;
}

export interface GraphQuery {
  tenant_id: string;
  fleet_id?: string;
  agent_id?: string;
  entity_id?: string;
  depth?: number;
  limit?: number;
}
