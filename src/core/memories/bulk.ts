// Bulk write (spec 4.2 bulk rules, DEFAULTS "Bulk writes"): up to 100 memories, stored in a few
// short transactions on the embedded database (one on a server). Every item carries
// client_request_id "<attempt>:<index>", and the unique index on (tenant_id, client_request_id)
// makes a retried attempt resolve each row to exactly one of created / duplicate_attempt, also when
// two retries race or a retry follows a batch stored in part: rows are inserted with ON CONFLICT
// DO NOTHING and classified after the insert, never checked before it.
import { randomUUID } from 'node:crypto';
import { Gate } from '../../infra/gate.js';
import { consecutiveGroups } from '../../infra/groups.js';
import { withPriority } from '../../infra/priority.js';
import { DomainError, ValidationError, type ValidationItem, embedderUnavailable } from '../errors.js';
import type { Queryable } from '../../store/db.js';
import type { Extraction } from '../../providers/entities/types.js';
import { type Caller, requireTrust, resolveAgent, resolveTenant, resolveWriteFleet, TRUST, writeAgent } from '../caller.js';
import { recordExtractions } from '../entities/store.js';
import { indexText } from './content.js';
import { Params } from './params.js';
import type { MemoryDeps } from './service.js';
import type { CreateMemoryInput, Usage } from './types.js';
import {
  INSERT_COLUMNS, liveMemories, memoryValues, prepareMemory, publishWritten, quotaExceeded, withClientTags, withEnrichment, type PreparedMemory,
} from './write.js';

export const BULK_MAX_ITEMS = 100;

export type BulkItemStatus = 'created' | 'duplicate_attempt' | 'duplicate_content' | 'error';
export type BulkErrorCode = 'validation' | 'forbidden' | 'enrichment_timeout' | 'missing_storage_id';

export interface BulkItemError {
  code: BulkErrorCode;
  message: string;
  /** Validation problems of the item, locs relative to the request body. */
  detail?: ValidationItem[];
}

export interface BulkItemResult {
  index: number;
  client_request_id: string;
  status: BulkItemStatus;
  /** The stored row: new (created) or stored by an earlier try of this attempt (duplicate_attempt). */
  id: string | null;
  /** The memory that already holds this content (duplicate_content). */
  duplicate_of: string | null;
  error: BulkItemError | null;
}

export interface BulkResult {
  created: number;
  duplicates: number;
  errors: number;
  results: BulkItemResult[];
  usage: Usage;
  bulk_ms: number;
}

/** An item as the HTTP layer parsed it: its fields, or the schema problems it has. */
export type BulkItemInput = { fields: Partial<CreateMemoryInput> } | { invalid: ValidationItem[] };

export interface BulkRequest {
  tenant_id?: string;
  agent_id?: string;
  fleet_id?: string | null;
  items: BulkItemInput[];
}

export interface BulkOptions {
  /** Time from the start until the transaction must have committed; then 504 and nothing is stored. */
  budgetMs: number;
  /** Items whose embedding or entities are not ready this long after their enrichment began fail with enrichment_timeout. */
  enrichTimeoutMs: number;
}

export const clientRequestId = (attempt: string, index: number) => `${attempt}:${index}`;

/**
 * Whose attempt ids these are: the key's (the gateway's or standalone caller's agent without
 * one). Another key's attempt with the same id is another attempt.
 */
export const attemptScope = (c: Caller) => (c.keyId ? `key:${c.keyId}` : `agent:${c.agentId ?? ''}`);

/** Rules 3 and 4: 207 only when errors and successes are mixed; all-error batches are 200 too. */
export function bulkHttpStatus(results: Pick<BulkItemResult, 'status'>[]): 200 | 207 {
  const failed = results.filter((r) => r.status === 'error').length;
  return failed > 0 && failed < results.length ? 207 : 200;
}

/** What the storage step learnt about one candidate row. */
export type StoredOutcome =
  | { status: 'created' | 'duplicate_attempt'; id: string }
  | { status: 'duplicate_content'; duplicateOf: string }
  | { status: 'missing' };

/**
 * Classifies the rows of one insert. A row is created when the insert returned it, a duplicate
 * of the attempt when its client_request_id is held by an earlier row, a duplicate of content
 * when a live row holds its content, and missing when none of these explains why it is absent.
 */
export function classifyRows(
  rows: { crid: string; contentKey: string }[],
  inserted: Map<string, string>, byAttempt: Map<string, string>, byContent: Map<string, string>,
): StoredOutcome[] {
  return rows.map((r) => {
    const created = inserted.get(r.crid);
    if (created) return { status: 'created', id: created };
    const earlier = byAttempt.get(r.crid);
    if (earlier) return { status: 'duplicate_attempt', id: earlier };
    const holder = byContent.get(r.contentKey);
    if (holder) return { status: 'duplicate_content', duplicateOf: holder };
    return { status: 'missing' };
  });
}

/** The unique content key of a row: fleet, writer and content hash (migration 060). */
const contentKey = (fleetId: string | null, agentId: string, hash: string) => `${fleetId ?? ''}\u0000${agentId}\u0000${hash}`;

/**
 * The time budget of one bulk request. Once it has run out the first transaction may no longer
 * commit: every step checks it, and a request that stopped waiting marks it aborted so the
 * transaction, still queued or running, rolls back.
 */
export class BulkBudget {
  private aborted = false;
  /** Set once the first transaction passed its last check: the commits are under way and are awaited. */
  committing = false;

  constructor(readonly budgetMs: number, readonly deadline: number) {}

  left(): number {
    return this.deadline - Date.now();
  }

  error(): DomainError {
    return new DomainError(504, 'Gateway Timeout',
      `The bulk write did not commit within its budget of ${this.budgetMs} ms; nothing of it was stored. ` +
      'Retry with the same X-Bulk-Attempt-Id.');
  }

  /** Throws 504 once the budget has run out, until the first commit: then the rows are stored to the end. */
  check(): void {
    if (this.committing) return;
    if (this.aborted || this.left() <= 0) this.abort();
  }

  /** Refuses the batch before it waits or works: 504 with the seconds after which there should be room. */
  refuse(waitMs: number): never {
    this.aborted = true;
    const e = this.error();
    throw new DomainError(e.status, e.title,
      `The bulk write would not commit within its budget of ${this.budgetMs} ms: the batches ahead of it need about ` +
      `${Math.ceil(waitMs / 1000)} s. Nothing of it was stored; retry with the same X-Bulk-Attempt-Id after Retry-After.`,
      {}, { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
  }

  /** Gives up on the request: 504, and the transaction can no longer commit. */
  abort(): never {
    this.aborted = true;
    throw this.error();
  }

  /** Waits for the work, but answers 504 when the budget runs out before its commit began. */
  async settle<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined); // it may settle after this request stopped waiting
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      const tick = () => {
        if (this.committing) return; // too late to stop it: wait for the commit
        if (this.left() > 0) timer = setTimeout(tick, this.left());
        else resolve('expired');
      };
      timer = setTimeout(tick, Math.max(0, this.left()));
    });
    try {
      const first = await Promise.race([work, expired]);
      if (first === 'expired') {
        this.aborted = true;
        throw this.error();
      }
      return first;
    } finally {
      clearTimeout(timer);
    }
  }
}

interface Candidate {
  index: number;
  crid: string;
  agentId: string;
  m: PreparedMemory;
  text: string;
  vector?: Float32Array;
  extraction?: Extraction;
}

const EMPTY_EXTRACTION: Extraction = { entities: [], relations: [] };

/** Records how p settles, so that what is ready can be read at a deadline. */
function track<T>(p: Promise<T>) {
  const state: { done: boolean; value?: T; error?: unknown } = { done: false };
  const settled = p.then((value) => { state.done = true; state.value = value; }, (error) => { state.done = true; state.error = error; });
  return { state, settled };
}

/** Waits for `all` or until `until` (epoch ms), whichever comes first. */
async function waitUntil(all: Promise<unknown>, until: number): Promise<void> {
  let done = false;
  const settled = all.then(() => { done = true; }, () => { done = true; });
  // A timer may fire a millisecond before Date.now() reaches `until` (the event loop's clock is
  // cached): wait again, so that a caller reading the clock afterwards sees the deadline passed.
  while (!done && Date.now() < until) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([settled, new Promise<void>((resolve) => { timer = setTimeout(resolve, Math.max(1, until - Date.now())).unref(); })]);
    clearTimeout(timer);
  }
}

/**
 * Batches enriched at once. Enrichment is CPU-bound: two keep the models busy while another batch
 * commits; more would only interleave their work so that all finish late, and under overload
 * spend CPU on batches whose budget has already run out. Waiting batches queue in order.
 */
export const BULK_ENRICH_CONCURRENCY = 2;

export { Gate };

/**
 * Recent cost of a batch, from the start of its enrichment to its commit, per enriched item: the
 * median of the last few batches of some size (small batches are dominated by fixed costs, and the
 * median ignores a cold start). A batch whose remaining budget is shorter than its expected cost
 * is answered 504 before it spends CPU on work that would be thrown away.
 */
export class Pace {
  static readonly MIN_ITEMS = 10;
  static readonly WINDOW = 8;
  private recent: number[] = [];

  observe(ms: number, items: number): void {
    if (items < Pace.MIN_ITEMS) return;
    this.recent.push(ms / items);
    if (this.recent.length > Pace.WINDOW) this.recent.shift();
  }

  /** Expected ms for a batch of `items`; 0 until enough was observed. */
  expect(items: number): number {
    if (this.recent.length === 0) return 0;
    const sorted = [...this.recent].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)] * items;
  }
}

/**
 * Admission of batches to enrichment: the FIFO gate, the recent pace, and the items of the batches
 * queued at or holding a place in the gate. A batch that could not commit within its budget after
 * the work ahead of it is refused at once, with Retry-After, instead of waiting to be refused.
 */
export class Admission {
  readonly gate: Gate;
  readonly pace = new Pace();
  private queuedItems = 0;

  constructor(places = BULK_ENRICH_CONCURRENCY) {
    this.gate = new Gate(places);
  }

  /** Expected ms until a batch arriving now has a place: the work ahead, shared by the places. */
  expectedWait(): number {
    return this.pace.expect(this.queuedItems) / this.gate.size;
  }

  /** Queues for a place; resolves with the function that gives it up (idempotent). */
  async enter(items: number): Promise<() => void> {
    this.queuedItems += items;
    const leave = await this.gate.enter();
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.queuedItems -= items;
      leave();
    };
  }
}

export class BulkWriter {
  private admission = new Admission();

  constructor(private deps: MemoryDeps) {}

  write(caller: Caller, attempt: string, req: BulkRequest, opts: BulkOptions): Promise<BulkResult> {
    const started = Date.now();
    const budget = new BulkBudget(opts.budgetMs, started + opts.budgetMs);
    return budget.settle(runBulk(this.deps, this.admission, caller, attempt, req, opts, budget, started));
  }
}

async function runBulk(
  deps: MemoryDeps, admission: Admission, caller: Caller, attempt: string, req: BulkRequest,
  opts: BulkOptions, budget: BulkBudget, started: number,
): Promise<BulkResult> {
  requireTrust(caller, TRUST.standard, 'Changing memories');
  const tenantId = resolveTenant(caller, req.tenant_id, 'write');
  resolveAgent(caller, req.agent_id); // an agent-scoped key naming another agent in the envelope: 403 for the batch

  const results: BulkItemResult[] = req.items.map((_, index) => ({
    index, client_request_id: clientRequestId(attempt, index), status: 'error', id: null, duplicate_of: null, error: null,
  }));
  const fail = (index: number, code: BulkErrorCode, message: string, detail?: ValidationItem[]) => {
    results[index].error = detail ? { code, message, detail } : { code, message };
  };

  // 1. Per-item checks: schema problems from the HTTP layer, tenant, agent, content rules.
  const candidates: Candidate[] = [];
  req.items.forEach((item, index) => {
    const at = ['body', 'items', index];
    if ('invalid' in item) return fail(index, 'validation', 'The item is not a valid memory', item.invalid);
    const f = item.fields;
    if (f.tenant_id != null && f.tenant_id !== tenantId) {
      return fail(index, 'validation', 'The item names another tenant than the request', [{
        loc: [...at, 'tenant_id'], msg: `tenant_id must equal the request's tenant_id "${tenantId}"`, type: 'value_error', input: f.tenant_id, ctx: {},
      }]);
    }
    let agentId: string;
    let fleetId: string | null;
    try {
      agentId = writeAgent(caller, f.agent_id ?? req.agent_id);
      fleetId = resolveWriteFleet(caller, f.fleet_id !== undefined ? f.fleet_id : req.fleet_id);
    } catch (err) {
      if (err instanceof DomainError) return fail(index, 'forbidden', err.message);
      throw err;
    }
    const input: CreateMemoryInput = withClientTags({ ...f, tenant_id: tenantId, agent_id: agentId, content: f.content ?? '', fleet_id: fleetId });
    try {
      const m = prepareMemory(input, at);
      candidates.push({ index, crid: results[index].client_request_id, agentId, m, text: indexText(input.title, m.content) });
    } catch (err) {
      if (err instanceof ValidationError) return fail(index, 'validation', 'The item is not a valid memory', err.items);
      throw err;
    }
  });

  // 2. Rows an earlier try of this attempt stored, or whose content is already stored, need no
  // enrichment. This read only saves work: the transaction classifies every row again.
  const scope = attemptScope(caller);
  const known = candidates.length ? await findHolders(deps.db, tenantId, scope, candidates) : { byAttempt: new Map(), byContent: new Map() };
  const fresh = candidates.filter((c) => !known.byAttempt.has(c.crid) && !known.byContent.has(contentKey(c.m.fleetId, c.agentId, c.m.hash)));

  // Room in the detector's backlog for every row this batch may create, taken before any work:
  // a batch that cannot get it while it could still commit is refused with Retry-After.
  const backlog = deps.backlog;
  // It waits at most half its budget, and never past the point where its work could no longer commit.
  await backlog?.reserve(fresh.length, Math.min(started + opts.budgetMs / 2, budget.deadline - admission.pace.expect(fresh.length)));
  let published = 0;
  try {
    return await enrichAndStore(deps, admission, opts, budget, started, tenantId, scope, results, fail, candidates, fresh, () => { published++; });
  } finally {
    backlog?.release(fresh.length - published);
  }
}

async function enrichAndStore(
  deps: MemoryDeps, admission: Admission, opts: BulkOptions, budget: BulkBudget, started: number,
  tenantId: string, scope: string, results: BulkItemResult[],
  fail: (index: number, code: BulkErrorCode, message: string, detail?: ValidationItem[]) => void,
  candidates: Candidate[], fresh: Candidate[], onPublished: () => void,
): Promise<BulkResult> {
  // 3. Enrichment: one embedder call for the whole batch (the pool spreads it over its workers),
  // entity extraction alongside. Items not enriched in time fail; the rest go on.
  let enrichStart: number | null = null;
  const { pace } = admission;
  if (fresh.length) {
    const wait = admission.expectedWait();
    if (wait + pace.expect(fresh.length) > budget.left()) budget.refuse(wait);
    const leave = await admission.enter(fresh.length);
    let working: Promise<unknown> = Promise.resolve();
    const holdAtMost = Date.now() + opts.enrichTimeoutMs + opts.budgetMs;
    try {
      budget.check(); // the budget may have run out while this batch waited its turn
      if (budget.left() < pace.expect(fresh.length)) budget.abort(); // it would run out before the commit
      enrichStart = Date.now();
      // Type, title and tags the items leave out: a model request (if any) runs alongside the embedding.
      const inferring = fresh.map((c) => deps.enricher.begin({ ...c.m.input, content: c.m.content }));
      const embedded = track(deps.embedder.embed(fresh.map((c) => c.text)));
      const extracted = fresh.map((c) => track(deps.entities.extract(c.text).catch((err) => {
        deps.log?.warn({ err }, 'entity extraction failed');
        return EMPTY_EXTRACTION;
      })));
      working = Promise.all([embedded.settled, ...extracted.map((e) => e.settled)]);
      await waitUntil(working, Math.min(enrichStart + opts.enrichTimeoutMs, budget.deadline));
      budget.check();
      if (embedded.state.error !== undefined) {
        deps.log?.warn({ err: embedded.state.error }, 'embedding failed');
        throw embedderUnavailable();
      }
      fresh.forEach((c, i) => {
        if (embedded.state.done && extracted[i].state.done) {
          c.vector = embedded.state.value![i];
          c.extraction = extracted[i].state.value!;
        } else {
          fail(c.index, 'enrichment_timeout', `Embedding or entity extraction did not finish within ${opts.enrichTimeoutMs} ms; retry with the same X-Bulk-Attempt-Id`);
        }
      });
      // Never fails an item: a model that does not answer in time leaves the rules to answer.
      const inferred = await Promise.all(fresh.map((c, i) => (c.vector ? inferring[i].finish(c.extraction) : Promise.resolve({}))));
      fresh.forEach((c, i) => { c.m = withEnrichment(c.m, inferred[i]); });
      budget.check();
    } finally {
      // The place is handed on only when the models are done with this batch, also when the batch
      // stopped waiting for them: work nobody waits for must not pile up in the worker pools.
      // (A model that never answers frees it after a while.)
      void waitUntil(working, holdAtMost).then(leave);
    }
  }
  const timedOut = new Set(fresh.filter((c) => !c.vector).map((c) => c.index));
  const ready = candidates.filter((c) => !timedOut.has(c.index));

  // 4. Storage: a transaction per chunk of rows (one for the batch on a database server).
  const quota = deps.quotaPerTenant;
  let stored: number;
  if (ready.length === 0) {
    stored = await liveMemories(deps.db, tenantId);
  } else {
    const out = await storeRows(deps, tenantId, scope, ready, quota, budget);
    if (enrichStart !== null) pace.observe(Date.now() - enrichStart, fresh.length);
    stored = out.stored;
    ready.forEach((c, i) => {
      const o = out.outcomes[i];
      const r = results[c.index];
      if (o.status === 'missing') {
        fail(c.index, 'missing_storage_id', 'The row was neither stored nor found afterwards; retry with the same X-Bulk-Attempt-Id');
        return;
      }
      r.status = o.status;
      if (o.status === 'duplicate_content') r.duplicate_of = o.duplicateOf;
      else r.id = o.id;
    });
  }

  for (const c of ready) {
    const r = results[c.index];
    if (r.status === 'created') {
      publishWritten(deps.bus, deps.log, tenantId, { memory_id: r.id, fleet_id: c.m.fleetId, agent_id: c.agentId, op: 'create' });
      onPublished();
    }
  }
  const count = (s: BulkItemStatus) => results.filter((r) => r.status === s).length;
  return {
    created: count('created'),
    duplicates: count('duplicate_attempt') + count('duplicate_content'),
    errors: count('error'),
    results,
    usage: { memories_stored: stored, memories_limit: quota, writes_remaining: Math.max(quota - stored, 0) },
    bulk_ms: Date.now() - started,
  };
}

/** Rows that already hold these candidates' attempt ids, and live rows holding their content. */
async function findHolders(q: Queryable, tenantId: string, scope: string, rows: Candidate[]) {
  const byAttempt = new Map<string, string>();
  const byContent = new Map<string, string>();
  const { rows: a } = await q.query<{ id: string; client_request_id: string }>(
    `SELECT id, client_request_id FROM memories
     WHERE tenant_id = $1 AND coalesce(attempt_scope, '') = $2 AND client_request_id = ANY($3::text[])`,
    [tenantId, scope, rows.map((r) => r.crid)]);
  for (const r of a) byAttempt.set(r.client_request_id, r.id);
  const open = rows.filter((r) => !byAttempt.has(r.crid));
  if (open.length) {
    const { rows: h } = await q.query<{ id: string; fleet_key: string; agent_id: string; content_hash: string }>(
      `SELECT m.id, coalesce(m.fleet_id, '') AS fleet_key, m.agent_id, m.content_hash
       FROM unnest($2::text[], $3::text[], $4::text[]) AS k(fleet_key, agent_id, content_hash)
       JOIN memories m ON m.tenant_id = $1 AND coalesce(m.fleet_id, '') = k.fleet_key AND m.agent_id = k.agent_id
                      AND m.content_hash = k.content_hash AND m.deleted_at IS NULL`,
      [tenantId, open.map((r) => r.m.fleetId ?? ''), open.map((r) => r.agentId), open.map((r) => r.m.hash)]);
    for (const r of h) byContent.set(contentKey(r.fleet_key, r.agent_id, r.content_hash), r.id);
  }
  return { byAttempt, byContent };
}

/**
 * How many rows one storage transaction takes on the embedded database. It has one session, and
 * every request waits for the transaction holding it: each row's HNSW, BM25, full-text and B-tree
 * inserts and its entity links take a few ms, a long text's tens of ms. A 100-row transaction held
 * searches for half a second, one of ten short rows ~40 ms, one of two 3,600-character rows ~75 ms.
 * A database server serves other sessions meanwhile, so there the batch stays one transaction.
 */
export const STORE_CHUNK = { rows: 5, chars: 4_000 };

/** Consecutive runs of rows, each within STORE_CHUNK's rows and characters (a longer row goes alone). */
export function chunkRows<T extends { text: string }>(rows: T[]): T[][] {
  return consecutiveGroups(rows, (r) => r.text.length, { items: STORE_CHUNK.rows, weight: STORE_CHUNK.chars });
}

/**
 * Stores the ready rows. The budget is checked before the first commit; from then on the rows
 * are stored to the end (504 means nothing was stored). Every transaction checks the quota
 * against the rows still to come, so a batch that does not fit is refused before any of it is
 * stored; only a concurrent writer filling the quota in between can leave a batch part-stored,
 * and its retry with the same attempt id finds those rows as duplicate_attempt.
 */
async function storeRows(deps: MemoryDeps, tenantId: string, scope: string, rows: Candidate[], quota: number, budget: BulkBudget) {
  const chunks = deps.db.singleSession ? chunkRows(rows) : [rows];
  const outcomes: StoredOutcome[] = [];
  let stored = 0;
  let left = rows.filter((r) => r.vector).length;
  for (const [i, chunk] of chunks.entries()) {
    // Requests waiting for the database go between the chunks (infra/priority.ts).
    const out = await withPriority('batch', () => deps.db.tx((q) => storeChunk(q, deps, tenantId, scope, chunk, left, quota, budget, i === chunks.length - 1)));
    outcomes.push(...out.outcomes);
    stored = out.stored;
    left -= chunk.filter((r) => r.vector).length;
  }
  return { outcomes, stored };
}

/**
 * One storage transaction: insert the enriched rows, classify every row, record entities.
 * `left`: enriched rows of the batch not yet stored, this chunk's included.
 */
async function storeChunk(
  q: Queryable, deps: MemoryDeps, tenantId: string, scope: string, rows: Candidate[], left: number, quota: number,
  budget: BulkBudget, last: boolean,
) {
  budget.check();
  const before = await liveMemories(q, tenantId);
  // Before the rows of a chunk that is not the last: do the rest of the batch fit?
  if (!last && before + left > quota) throw quotaExceeded(tenantId, before, quota, left);
  const enriched = rows.filter((r) => r.vector);
  let ins: { id: string; client_request_id: string }[] = [];
  if (enriched.length) {
    const p = new Params();
    const tuples = enriched.map((r) => memoryValues(p, {
      id: randomUUID(), tenantId, agentId: r.agentId, m: r.m, vector: r.vector!, model: deps.embedder.modelId, clientRequestId: r.crid, attemptScope: scope,
    }));
    // No conflict target: a row taken by either unique index (attempt or content) is skipped here
    // and classified below.
    ({ rows: ins } = await q.query<{ id: string; client_request_id: string }>(
      `INSERT INTO memories (${INSERT_COLUMNS}) VALUES ${tuples.join(', ')} ON CONFLICT DO NOTHING RETURNING id, client_request_id`,
      p.values));
  }
  // The chunk fits or none of it is written (the transaction rolls back).
  if (before + ins.length > quota) throw quotaExceeded(tenantId, before, quota, ins.length);
  budget.check();

  const inserted = new Map(ins.map((r) => [r.client_request_id, r.id]));
  const rest = rows.filter((r) => !inserted.has(r.crid));
  const { byAttempt, byContent } = rest.length ? await findHolders(q, tenantId, scope, rest) : { byAttempt: new Map(), byContent: new Map() };
  const created = enriched.filter((r) => inserted.has(r.crid));
  await recordExtractions(q, tenantId, created.map((r) => ({ memoryId: inserted.get(r.crid)!, extraction: r.extraction!, given: r.m.input })));
  budget.check();
  budget.committing = true;
  const outcomes = classifyRows(rows.map((r) => ({ crid: r.crid, contentKey: contentKey(r.m.fleetId, r.agentId, r.m.hash) })), inserted, byAttempt, byContent);
  return { outcomes, stored: before + ins.length };
}
