// Entity extraction entry point.
import { NlpEntityExtractor, type NlpExtractorOptions } from './extractor.js';

export function createEntityExtractor(opts: NlpExtractorOptions = {}): NlpEntityExtractor {
  return new NlpEntityExtractor(opts);
}

export type { EntityExtractor, EntityType, ExtractedEntity, ExtractedRelation, Extraction } from './types.js';
export { ENTITY_TYPES } from './types.js';
export { NlpEntityExtractor, type NlpExtractorOptions } from './extractor.js';
export { normalizeEntityName } from './normalize.js';
