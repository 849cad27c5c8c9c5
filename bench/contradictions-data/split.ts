// The development set's split, fixed before any tuning: by source document (a package, a LoCoMo
// conversation), so near-duplicate lines of one document never sit on both sides. About 40 % of
// documents are held out; nothing is ever tuned or trained on them.
import { createHash } from 'node:crypto';

export type Split = 'tune' | 'heldout';

/** What a pair is, when it is not a conflict: the hard-negative kinds. */
export type PairKind =
  | 'update' // a conflict: a single-valued attribute replaced (or incompatible claims)
  | 'contradiction'
  | 'other_instance' // a different thing that shares words (another package, pet, trip…)
  | 'other_attribute' // the same subject, another attribute
  | 'multi_valued' // a second value of a relation that holds many (another hobby, a second membership)
  | 'plan' // plans and hypotheticals
  | 'history' // what used to be, told as history
  | 'restated' // the same fact in other words
  | 'other_time' // a statement about a different time
  | 'unrelated';

export interface DevPair {
  id: string;
  split: Split;
  source: 'debian' | 'npm' | 'locomo';
  /** Source documents the two memories come from. */
  docs: string[];
  /** Memory texts, or LoCoMo references resolved at run time (the data set may not be copied). */
  older: string | LocomoRef;
  newer: string | LocomoRef;
  label: 'rdf_conflict' | 'semantic_conflict' | 'none';
  kind: PairKind;
  note?: string;
  provenance?: unknown;
}

/**
 * A LoCoMo text: a turn (conversation index and dia_id; `sentences` keeps only those sentences,
 * 0-based) or one of the data set's observations (its session key, speaker and index).
 */
export type LocomoRef =
  | { locomo: number; dia_id: string; sentences?: number[] }
  | { locomo: number; obs: string; speaker: string; index: number };

export const HELDOUT_SHARE = 0.4;

export function splitOf(doc: string): Split {
  const h = createHash('sha256').update(`contradictions-dev:${doc}`).digest();
  return h.readUInt32BE(0) / 2 ** 32 < HELDOUT_SHARE ? 'heldout' : 'tune';
}
