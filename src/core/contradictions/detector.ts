// The contradiction detector: subscribed to `memory.written`, it runs after the write has
// committed, never inside it. For the written memory it
//  1. records its triples (the writer's own, else those extracted from the content) in the
//     triple index;
//  2. gathers candidates of the same tenant that its writer can see (store.comparableSql): rows
//     whose writer named the same subject entity, rows with a triple about the same subject and
//     slot, the nearest rows by vector and rows naming the same entities (the write's extraction);
//  3. judges each pair, older against newer by created_at: the rules when both carry writer-given
//     triples, else the learned judge (classifier.ts); with an LLM configured, the LLM judges
//     pairs above a similarity threshold and the judge's verdict remains the fallback;
//  4. records findings: the older row becomes outdated (rdf_conflict) or conflicted
//     (semantic_conflict) and the newer row's supersedes_id points to it.
// Content is never changed or deleted. The memory may be the older side of a pair too (events
// delivered out of order). Updates are conditional, so a duplicate delivery changes nothing,
// and a lock in the cache keeps one detection per memory running at a time.
// Memories whose events arrive together (a bulk write's) are detected as one batch: loading, the
// triple index, the nearest rows, candidate rows, shared entities and findings are one statement
// each for the whole batch (the indexed subject and triple lookups stay one per memory that has a
// triple), so the database work per memory shrinks with the batch.
import type { Logger } from 'pino';
import type { Db } from '../../store/db.js';
import type { Cache } from '../../infra/cache/types.js';
import type { BusEvent } from '../../infra/bus/types.js';
import type { LlmClient } from '../../providers/llm/types.js';
import { judgePair, triplesOf, type MemoryFacts, type Verdict } from './detect.js';
import { analyzeCached, judgeLearned } from './classifier.js';
import { holdsManyFacts } from './speakers.js';
import type { MemoryInfo } from './pair-features.js';
import { slotOf } from './predicates.js';
import type { Triple } from './triples.js';
import { CacheLock } from './lock.js';
import { llmVerdict } from './llm-judge.js';
import {
  applyFindings, entityNames, loadCandidatesBatch, loadMemories, neighboursBatch, replaceTriplesBatch, sameSubjectIds, sharedEntityCountsBatch, sharedEntityIdsBatch,
  sharedTripleIds, type DetectRow, type StatusChange, type StoredTriple, type SupersedesLink,
} from './store.js';

export const MEMORY_WRITTEN_VERSION = 1;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An event no attempt can handle: thrown so the bus retries it and then parks it in the dead-letter store. */
export class PoisonEvent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoisonEvent';
  }
}

export interface DetectorOptions {
  db: Db;
  cache: Cache;
  /** The configured chat model, or null: rules only. */
  llm: LlmClient | null;
  log?: Pick<Logger, 'warn' | 'debug'>;
  /** Nearest rows by vector judged per memory. */
  neighbours?: number;
  /** Most rows taken from each indexed lookup (same subject, shared triple). */
  candidateLimit?: number;
  /** Most rows taken for sharing a named entity with the memory (beyond the nearest ones). */
  entityCandidates?: number;
  /** `model` (default): the learned judge over pair features; `rules`: the earlier rule judge alone. */
  judge?: 'model' | 'rules';
  /** Pairs at or above this similarity go to the LLM judge when one is configured. */
  llmMinSimilarity?: number;
  /** Most LLM calls per detection (the most similar pairs first). */
  llmMaxPairs?: number;
  llmTimeoutMs?: number;
  lockTtlMs?: number;
  lockWaitMs?: number;
  /**
   * Most memories detected together (one set of candidate queries per batch; default 100). Each
   * statement's work grows with the batch, and on the embedded database a request waits for the
   * statement running: there, 25 (100 held it 50–70 ms per statement while writes ran).
   */
  maxBatch?: number;
}

export interface Finding {
  older_id: string;
  newer_id: string;
  verdict: Exclude<Verdict, 'none'>;
  reason: string;
  similarity: number | null;
  /** rules (writer-given triples on both sides), model (the learned judge), llm, or rules_fallback (the LLM failed). */
  judged_by: 'rules' | 'model' | 'llm' | 'rules_fallback';
  /** The learned judge's probability of a conflict, when it judged the pair. */
  score?: number;
}

export interface DetectionResult {
  memory_id: string;
  skipped?: 'not_found';
  candidates: number;
  findings: Finding[];
  changed: { statuses: StatusChange[]; links: SupersedesLink[] };
  /** CPU time spent judging the pairs (text analysis, features, model), in ms. */
  judge_ms?: number;
}

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

const hasWriterTriple = (r: DetectRow) => Boolean(r.subject_entity_id && r.predicate && r.object_value);

/** A row as the judge reads it; a writer's subject entity becomes its name when the tenant knows the entity. */
function factsOf(r: DetectRow, names: Map<string, string>): MemoryFacts {
  const sid = r.subject_entity_id?.toLowerCase() ?? null;
  return {
    content: r.content,
    subject: sid ? (names.get(sid) ?? sid) : null,
    predicate: r.predicate,
    object_value: r.object_value,
    similarity: r.similarity,
  };
}

const storedTriple = (t: Triple): StoredTriple => ({
  subject: t.subject,
  slot: t.predicate === 'left' ? 'left' : (slotOf(t.predicate) ?? t.predicate),
  predicate: t.predicate,
  object_norm: t.object_norm,
  negated: t.negated,
});

/** Index keys under which a triple's comparable triples are stored ("left X" compares with works_at and locations). */
function lookupKeys(triples: StoredTriple[]): Array<{ subject: string; slot: string }> {
  const keys = new Map<string, { subject: string; slot: string }>();
  const add = (subject: string, slot: string) => keys.set(`${subject}\u0000${slot}`, { subject, slot });
  for (const t of triples) {
    add(t.subject, t.slot);
    if (t.slot === 'left') {
      add(t.subject, 'works_at');
      add(t.subject, 'location');
    } else if (t.slot === 'works_at' || t.slot === 'location') {
      add(t.subject, 'left');
    }
  }
  return [...keys.values()];
}

/** Total order of rows: created_at, then id for rows written in the same instant. */
const isOlder = (a: DetectRow, b: DetectRow) => a.created_key < b.created_key || (a.created_key === b.created_key && a.id < b.id);

export class ContradictionDetector {
  private readonly lock: CacheLock;
  private readonly neighbours: number;
  private readonly candidateLimit: number;
  private readonly entityCandidates: number;
  private readonly llmMinSimilarity: number;
  private readonly llmMaxPairs: number;
  private readonly maxBatch: number;

  constructor(private opts: DetectorOptions) {
    this.neighbours = opts.neighbours ?? 10;
    this.candidateLimit = opts.candidateLimit ?? 50;
    this.entityCandidates = opts.entityCandidates ?? 10;
    this.llmMinSimilarity = opts.llmMinSimilarity ?? 0.6;
    this.llmMaxPairs = opts.llmMaxPairs ?? 5;
    this.maxBatch = Math.max(1, opts.maxBatch ?? 100);
    this.lock = new CacheLock(opts.cache, {
      ttlMs: opts.lockTtlMs,
      waitMs: opts.lockWaitMs,
      onUnavailable: (err) => opts.log?.warn({ err }, 'cache unavailable: contradiction detection runs without its lock'),
    });
  }

  /** Bus handler of `memory.written`. Throws to have the event redelivered (dead-lettered after the bus's attempts). */
  async handle(event: BusEvent): Promise<DetectionResult> {
    if (event.version !== MEMORY_WRITTEN_VERSION) throw new PoisonEvent(`memory.written version ${event.version} is not supported`);
    const memoryId = (event.data as { memory_id?: unknown } | null)?.memory_id;
    if (typeof memoryId !== 'string' || !UUID_RE.test(memoryId)) throw new PoisonEvent('memory.written without a valid memory_id');
    if (!event.tenant_id) throw new PoisonEvent('memory.written without a tenant');
    const op = (event.data as { op?: unknown }).op;
    return this.detect(event.tenant_id, memoryId.toLowerCase(), { fresh: op === 'create' });
  }

  /**
   * Runs detection for one memory, holding its lock. Memories submitted while a batch runs are
   * detected together in the next one: one set of candidate queries per batch, not per memory.
   */
  detect(tenantId: string, memoryId: string, opts: { fresh?: boolean } = {}): Promise<DetectionResult> {
    return this.batcher.submit(tenantId, memoryId, opts.fresh ?? false);
  }

  private readonly batcher = new Batcher((tenantId, items) => this.runBatch(tenantId, items), () => this.maxBatch);

  /** Detects a batch of one tenant's memories, each under its own lock (taken in id order: no deadlock between batches). */
  private async runBatch(tenantId: string, items: BatchItem[]): Promise<Map<string, DetectionResult>> {
    const ids = items.map((x) => x.id).sort();
    // Memory ids are unique across tenants, so the id alone names the lock.
    const locked = (i: number): Promise<Map<string, DetectionResult>> =>
      i === ids.length ? this.run(tenantId, items) : this.lock.run(`contradiction:lock:${ids[i]}`, () => locked(i + 1));
    return locked(0);
  }

  private async run(tenantId: string, items: BatchItem[]): Promise<Map<string, DetectionResult>> {
    const { db } = this.opts;
    const results = new Map<string, DetectionResult>();
    const selves = await loadMemories(db, tenantId, items.map((x) => x.id));
    for (const x of items) results.set(x.id, { memory_id: x.id, skipped: 'not_found', candidates: 0, findings: [], changed: { statuses: [], links: [] } });
    if (selves.length === 0) return results;
    const fresh = new Set(items.filter((x) => x.fresh).map((x) => x.id));

    const selfNames = await entityNames(db, tenantId, selves.map((s) => s.subject_entity_id));
    const prepared = selves.map((self) => {
      const selfFacts = factsOf(self, selfNames);
      const selfTriples = triplesOf(selfFacts);
      return { self, selfTriples, triples: selfTriples.map(storedTriple) };
    });
    await replaceTriplesBatch(db, tenantId, prepared.map((p) => ({
      memoryId: p.self.id, triples: p.triples, source: hasWriterTriple(p.self) ? 'writer' : 'content', fresh: fresh.has(p.self.id),
    })));

    // Candidates: rows found by index (same writer subject, shared triple), then the nearest rows
    // by vector, which come loaded; only rows found otherwise are loaded after.
    const found = new Map<string, Set<string>>();
    for (const { self, triples } of prepared) {
      const ids = new Set<string>();
      if (hasWriterTriple(self)) {
        for (const id of await sameSubjectIds(db, tenantId, self.id, self, self.subject_entity_id!, this.candidateLimit)) ids.add(id);
      }
      // Only memories the writer could see are candidates (and only writers who could see this one).
      for (const id of await sharedTripleIds(db, tenantId, self.id, self, lookupKeys(triples), this.candidateLimit)) ids.add(id);
      found.set(self.id, ids);
    }
    const [near, named] = await Promise.all([
      neighboursBatch(db, tenantId, selves, this.neighbours),
      sharedEntityIdsBatch(db, tenantId, selves, this.candidateLimit, this.entityCandidates + this.neighbours),
    ]);
    const pairs: Array<{ self: DetectRow; id: string }> = [];
    for (const self of selves) {
      const ids = found.get(self.id)!;
      const nearIds = new Set((near.get(self.id) ?? []).map((r) => r.id));
      // An update worded unlike its older row is not among the nearest when many rows are alike; a shared name finds it.
      let extra = 0;
      for (const id of named.get(self.id) ?? []) {
        if (extra >= this.entityCandidates) break;
        if (nearIds.has(id) || ids.has(id)) continue;
        ids.add(id);
        extra++;
      }
      for (const id of nearIds) ids.delete(id);
      for (const id of ids) pairs.push({ self, id });
    }
    const loaded = await loadCandidatesBatch(db, tenantId, pairs);
    const candidatesOf = new Map(selves.map((self) => [self.id, [...near.get(self.id) ?? [], ...loaded.get(self.id) ?? []]]));
    const all = [...candidatesOf.values()].flat();
    const names = await entityNames(db, tenantId, all.map((c) => c.subject_entity_id));
    for (const [k, v] of selfNames) names.set(k, v);
    const learned = this.opts.judge !== 'rules';
    const shared = learned
      ? await sharedEntityCountsBatch(db, tenantId, [...candidatesOf].flatMap(([selfId, cs]) => cs.map((c) => ({ selfId, id: c.id }))))
      : new Map<string, Map<string, number>>();

    const judged: Array<{ self: DetectRow; candidates: DetectRow[]; findings: Finding[]; judgeMs: number }> = [];
    for (const { self, selfTriples } of prepared) {
      const candidates = candidatesOf.get(self.id)!;
      judged.push({ self, candidates, ...await this.judge(self, selfTriples, candidates, names, shared.get(self.id) ?? new Map()) });
    }
    // The batch's findings are recorded together, one statement (plan merges them as it merges one memory's).
    const rows = new Map<string, DetectRow>();
    for (const j of judged) for (const r of [j.self, ...j.candidates]) rows.set(r.id, r);
    const changed = await applyFindings(db, tenantId, ...plan(judged.flatMap((j) => j.findings), [...rows.values()]));
    for (const { self, candidates, findings, judgeMs } of judged) {
      // What changed because of this memory's findings.
      const [statuses, links] = plan(findings, [self, ...candidates]);
      const mine = {
        statuses: changed.statuses.filter((c) => statuses.some((s) => s.id === c.id)),
        links: changed.links.filter((c) => links.some((l) => l.newer_id === c.newer_id && l.older_id === c.older_id)),
      };
      if (findings.length) this.opts.log?.debug({ memory_id: self.id, findings, changed: mine }, 'contradictions found');
      results.set(self.id, { memory_id: self.id, candidates: candidates.length, findings, changed: mine, judge_ms: Math.round(judgeMs * 100) / 100 });
    }
    return results;
  }

  /** Judges a memory against its candidates. */
  private async judge(
    self: DetectRow, selfTriples: Triple[], candidates: DetectRow[], names: Map<string, string>, shared: Map<string, number>,
  ): Promise<{ findings: Finding[]; judgeMs: number }> {
    const learned = this.opts.judge !== 'rules';
    // Most similar first: they get the LLM judge when its call budget is limited.
    candidates.sort((a, b) => (b.similarity ?? -1) - (a.similarity ?? -1));
    const findings: Finding[] = [];
    let llmCalls = 0;
    let judgeMs = 0;
    // Each text is analysed once (the memory itself against every candidate; neighbours across writes).
    const info = (r: DetectRow): MemoryInfo => analyzeCached(r.content);
    const tripleCache = new Map<string, Triple[]>([[self.id, selfTriples]]);
    const triplesFor = (r: DetectRow, f: MemoryFacts) => tripleCache.get(r.id) ?? tripleCache.set(r.id, triplesOf(f)).get(r.id)!;
    for (const c of candidates) {
      // Judging a pair of long texts takes milliseconds of main-thread CPU: requests get a turn between pairs.
      await yieldToRequests();
      const p0 = performance.now();
      const [newer, older] = isOlder(c, self) ? [self, c] : [c, self];
      const similarity = c.similarity;
      const newerFacts = { ...factsOf(newer, names), similarity };
      const olderFacts = { ...factsOf(older, names), similarity };
      newerFacts.triples = triplesFor(newer, newerFacts);
      olderFacts.triples = triplesFor(older, olderFacts);
      const rule = judgePair(newerFacts, olderFacts, { similarity });
      let verdict: Verdict = rule.verdict;
      let reason: string = rule.reason;
      let judgedBy: Finding['judged_by'] = 'rules';
      let score: number | undefined;
      // Two writer-given triples are structured facts: the rule on them is exact, no model needed.
      const structured = hasWriterTriple(newer) && hasWriterTriple(older);
      if (learned && !structured) {
        const j = judgeLearned(info(newer), info(older), { cosine: similarity, sharedEntities: shared.get(c.id) ?? 0, rule: rule.verdict });
        verdict = j.verdict;
        score = Math.round(j.score * 1000) / 1000;
        reason = j.verdict === 'none' ? 'model' : j.verdict === rule.verdict ? rule.reason : 'model';
        judgedBy = 'model';
      }
      if (this.opts.llm && !structured && similarity !== null && similarity >= this.llmMinSimilarity && llmCalls < this.llmMaxPairs) {
        llmCalls++;
        try {
          verdict = await llmVerdict(this.opts.llm, older.content, newer.content, this.opts.llmTimeoutMs);
          reason = 'llm';
          judgedBy = 'llm';
        } catch (err) {
          judgedBy = 'rules_fallback';
          this.opts.log?.warn({ err }, 'LLM contradiction judge failed; the rule verdict stands');
        }
      }
      judgeMs += performance.now() - p0;
      if (verdict === 'none') continue;
      // A later memory may contradict one thing a transcript or a long text says, but never makes it
      // out of date as a whole: most of it stays true, and an outdated memory leaves search.
      // (a writer-given triple says what its memory is about, whatever its length: replaced outright)
      if (verdict === 'rdf_conflict' && !structured && holdsManyFacts(older.content)) verdict = 'semantic_conflict';
      findings.push({ older_id: older.id, newer_id: newer.id, verdict, reason, similarity, judged_by: judgedBy, ...(score !== undefined ? { score } : {}) });
    }

    return { findings, judgeMs };
  }
}

interface BatchItem {
  id: string;
  /** A new row (a create event): nothing of it is in the triple index yet. */
  fresh: boolean;
}

interface Pending extends BatchItem {
  tenantId: string;
  resolve: (r: DetectionResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Gathers detections submitted while a batch runs into the next batch (one tenant per batch, at
 * most maxBatch memories). Each caller gets its own memory's result, or the batch's error.
 */
class Batcher {
  private pending: Pending[] = [];
  private running = false;

  constructor(
    private readonly work: (tenantId: string, items: BatchItem[]) => Promise<Map<string, DetectionResult>>,
    private readonly maxBatch: () => number,
  ) {}

  submit(tenantId: string, id: string, fresh: boolean): Promise<DetectionResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ tenantId, id, fresh, resolve, reject });
      if (!this.running) {
        this.running = true;
        // A turn first, so that the events delivered together join one batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length) {
      const tenantId = this.pending[0].tenantId;
      const batch: Pending[] = [];
      const seen = new Set<string>();
      const rest: Pending[] = [];
      for (const p of this.pending) {
        // The same memory twice (a redelivery) waits for the next batch: one detection per memory at a time.
        if (p.tenantId === tenantId && batch.length < this.maxBatch() && !seen.has(p.id)) {
          batch.push(p);
          seen.add(p.id);
        } else rest.push(p);
      }
      this.pending = rest;
      try {
        const results = await this.work(tenantId, batch);
        for (const p of batch) p.resolve(results.get(p.id)!);
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    this.running = false;
  }
}

/**
 * What the findings change: each older row's status (outdated wins over conflicted), and for each
 * newer row a link to the most recent row it supersedes.
 */
export function plan(findings: Finding[], rows: DetectRow[]): [StatusChange[], SupersedesLink[]] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const status = new Map<string, StatusChange['status']>();
  const link = new Map<string, string>();
  for (const f of findings) {
    const target = f.verdict === 'rdf_conflict' ? 'outdated' : 'conflicted';
    if (status.get(f.older_id) !== 'outdated') status.set(f.older_id, target);
    const current = link.get(f.newer_id);
    if (!current || isOlder(byId.get(current)!, byId.get(f.older_id)!)) link.set(f.newer_id, f.older_id);
  }
  return [
    [...status].map(([id, s]) => ({ id, status: s })),
    [...link].map(([newer_id, older_id]) => ({ newer_id, older_id })),
  ];
}
