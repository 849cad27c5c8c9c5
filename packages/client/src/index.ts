// @loci/client: a typed client for the Loci memory service.
export { LociClient } from './client.js';
export type { BulkItemResult, BulkResult, ClientOptions, ListQuery, MemoryInput, WriteManyOptions, WriteManyResult } from './client.js';
export { LociConnectionError, LociError, LociValidationError, describeBody } from './errors.js';
export type { ProblemBody, ValidationItem } from './errors.js';
export type { RetryInfo } from './http.js';
export { DEFAULT_RETRY, parseRetryAfter, retryDelayMs, retryableStatus } from './retry.js';
export type { RetryPolicy } from './retry.js';
export { pages, items } from './pages.js';
export type { CursorPage } from './pages.js';
export { attemptId, chunk, BULK_CHUNK, BULK_ITEM_RETRIES, retryableItem } from './bulk.js';
export type { CallOptions, HttpMethod, Memory, Paths, PathsWith, Problem, RequestOptions, Schemas, SearchItem } from './types.js';
export type { components, paths } from './schema.js';
