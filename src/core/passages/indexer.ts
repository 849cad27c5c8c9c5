// Writes the search units of stored memories (migration 081): the passages of a long memory and
// the in-context reading of a short one. Runs after the write is committed, off the request
// path (the memory itself is searchable at once; its units follow within moments), fed by the
// memory.written events. Idempotent: a memory's units are replaced, so a redelivered event or
// an edit just rewrites them.
import type { Logger } from 'pino';
import type { Db } from '../../store/db.js';
import { vectorParam } from '../../store/db.js';
import type { Embedder } from '../../providers/embedder/types.js';
import type { BusEvent } from '../../infra/bus/types.js';
import { consecutiveGroups } from '../../infra/groups.js';
import { inBackground } from '../../infra/priority.js';
import { Params } from '../memories/params.js';
import {
  contextText, dialogueContext, PASSAGE_DEFAULTS, SENTENCE_DEFAULTS, sentenceUnits, splitPassages, TURN_PREFILTER_SQL,
  type PassageOptions, type SentenceOptions,
} from './split.js';

export interface IndexOptions extends PassageOptions {
  context: {
    /** Write a context unit for short memories that follow others of the same writer and run. */
    enabled: boolean;
    /** Earlier memories read before it. */
    previous: number;
    /** Only earlier memories of the same run whose time (ts_valid_start, else created_at) is at most this much older. */
    windowMs: number;
    /**
     * The same for a memory without a run_id: its writer's earlier memories without one, read as
     * context only when they and it are lines of one dialogue (dialogueContext: "Name: text" lines
     * with a speaker coming back): a writer's unrelated notes are not one conversation. 0: none.
     */
    noRunWindowMs: number;
  };
  /** A short memory of several sentences: one unit per sentence (null: none). */
  sentences: SentenceOptions | null;
  /**
   * Memories indexed per round (one embedder call). Its lookup of their preceding turns is one
   * statement, which holds the embedded database's one session: 64 memories took 30–60 ms of it.
   */
  batch: number;
}

export const INDEX_DEFAULTS: IndexOptions = {
  ...PASSAGE_DEFAULTS,
  context: { enabled: true, previous: 2, windowMs: 6 * 3_600_000, noRunWindowMs: 30 * 60_000 },
  sentences: SENTENCE_DEFAULTS,
  batch: 16,
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Unit { memoryId: string; tenantId: string; ord: number; kind: 'passage' | 'context' | 'sentence'; content: string; previousIds?: string[] }

/**
 * Units stored per transaction. Each unit costs index inserts (HNSW, BM25, GIN), ~2–4 ms on the
 * embedded database, whose one session a transaction holds: a long memory's twenty units in one
 * transaction kept a search waiting ~50–70 ms.
 */
const STORE_UNITS = 12;

/**
 * The transactions that store the units of some memories: consecutive memories with at most `most`
 * units in all, and a memory with more in several in a row. Each transaction first deletes the
 * earlier units of the memories in `clear` (those it begins), so a memory being indexed again has,
 * for a moment, part of its new units, never a mix with its old ones.
 */
export function storeParts(memories: Array<[string, Unit[]]>, most: number): Array<{ clear: string[]; units: Unit[] }> {
  const out: Array<{ clear: string[]; units: Unit[] }> = [];
  for (const group of consecutiveGroups(memories, ([, us]) => us.length, { weight: most })) {
    const units = group.flatMap(([, us]) => us);
    const clear = group.map(([id]) => id);
    if (units.length <= most) out.push({ clear, units });
    else for (let i = 0; i < units.length; i += most) out.push({ clear: i === 0 ? clear : [], units: units.slice(i, i + most) });
  }
  return out;
}

export class PassageIndexer {
  private readonly queue = new Map<string, string>(); // memory id → tenant id, in arrival order
  private running: Promise<void> | null = null;

  constructor(private readonly deps: { db: Db; embedder: Embedder; log?: Pick<Logger, 'warn'>; options?: IndexOptions }) {}

  private get o(): IndexOptions {
    return this.deps.options ?? INDEX_DEFAULTS;
  }

  /** Queues a stored (or edited) memory; its units are (re)written shortly. */
  enqueue(tenantId: string, memoryId: string) {
    this.queue.delete(memoryId);
    this.queue.set(memoryId, tenantId);
    // Background work: the embedded database serves waiting requests first.
    this.running ??= inBackground(() => this.drain()).finally(() => { this.running = null; });
  }

  /** A memory.written event: its memory is (re)indexed; an event without a valid memory id is ignored. */
  enqueueEvent(event: Pick<BusEvent, 'tenant_id' | 'data'>) {
    const id = (event.data as { memory_id?: unknown } | null)?.memory_id;
    if (typeof id === 'string' && UUID_RE.test(id) && event.tenant_id) this.enqueue(event.tenant_id, id.toLowerCase());
  }

  /** Resolves when every memory queued so far has been indexed. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain() {
    while (this.queue.size) {
      const batch = [...this.queue].slice(0, this.o.batch);
      for (const [id] of batch) this.queue.delete(id);
      try {
        await this.index(batch.map(([id]) => id));
      } catch (err) {
        this.deps.log?.warn({ err }, 'indexing passages failed');
      }
    }
  }

  /** A memory's passages (long) or sentences (short, of several), from its content alone. */
  private ownUnits(content: string): Array<Pick<Unit, 'ord' | 'kind' | 'content'>> {
    const o = this.o;
    const out: Array<Pick<Unit, 'ord' | 'kind' | 'content'>> = [];
    splitPassages(content, o).forEach((text, ord) => out.push({ ord, kind: 'passage', content: text }));
    // Long memories have passages instead; ords from 1,000 keep clear of them.
    if (o.sentences && content.length <= o.minChars) {
      sentenceUnits(content, o.sentences).forEach((text, i) => out.push({ ord: 1000 + i, kind: 'sentence', content: text }));
    }
    return out;
  }

  /** Whether a unit is embedded, or takes its vector from its memory's. */
  private embeds(u: Pick<Unit, 'ord' | 'kind' | 'content'>): boolean {
    // A model that reads only a text's start (windowChars) gave the memory itself the vector of
    // its first passage: that passage takes the memory's vector instead of a second embedding.
    const window = this.deps.embedder.windowChars;
    if (window !== undefined && u.kind === 'passage' && u.ord === 0 && u.content.length <= window) return false;
    // An in-context unit is not embedded either: its vector is the sum of the memory's and its
    // predecessors' (normalised when stored). Its text embedded gave the same recall on LoCoMo's
    // development split (R@10 71.3 vs 70.9, MRR 47.7 vs 48.2) for one more embedding per memory.
    return u.kind !== 'context';
  }

  /**
   * The texts embedded for a memory of this content, its own first: what writing it costs the
   * embedder (the benchmarks' ceiling for a text read whole).
   */
  embeddedTexts(content: string): string[] {
    return [content, ...this.ownUnits(content).filter((u) => this.embeds(u)).map((u) => u.content)];
  }

  /** The units of these memories, computed, embedded and stored (replacing any earlier ones). */
  async index(ids: string[]): Promise<number> {
    const o = this.o;
    // Without a run, only a memory that may be a line of dialogue reads its predecessors, two more
    // of them: whether a speaker comes back decides (dialogueContext). The predecessors are the
    // writer's last memories before it in the same fleet and run (migration 092's indexes: a few
    // rows read, however many the writer holds), those outside the time window then dropped.
    // The gate sits inside the lateral so that a memory without context reads no row at all.
    const gate = `$2::boolean AND length(m.content) <= $3::int AND (m.run_id IS NOT NULL OR ($6::float8 > 0 AND m.content ~ $7::text))`;
    const before = `e.tenant_id = m.tenant_id AND e.agent_id = m.agent_id AND coalesce(e.fleet_id, '') = coalesce(m.fleet_id, '')
                    AND e.write_seq < m.write_seq AND e.deleted_at IS NULL`;
    const { rows } = await this.deps.db.query<{ id: string; tenant_id: string; content: string; no_run: boolean; previous: string[] | null; previous_ids: string[] | null }>(
      `SELECT m.id, m.tenant_id, m.content, m.run_id IS NULL AS no_run, p.previous, p.previous_ids
       FROM memories m LEFT JOIN LATERAL (
         SELECT array_agg(x.content ORDER BY x.write_seq) AS previous, array_agg(x.id ORDER BY x.write_seq) AS previous_ids
         FROM (
           (SELECT e.id, e.content, e.write_seq, coalesce(e.ts_valid_start, e.created_at) AS at FROM memories e
            WHERE ${gate} AND m.run_id IS NOT NULL AND e.run_id = m.run_id AND ${before}
            ORDER BY e.write_seq DESC LIMIT $5::int)
           UNION ALL
           (SELECT e.id, e.content, e.write_seq, coalesce(e.ts_valid_start, e.created_at) AS at FROM memories e
            WHERE ${gate} AND m.run_id IS NULL AND e.run_id IS NULL AND ${before}
            ORDER BY e.write_seq DESC LIMIT $5::int + 2)
         ) AS x
         WHERE x.at BETWEEN coalesce(m.ts_valid_start, m.created_at) - make_interval(secs => CASE WHEN m.run_id IS NULL THEN $6::float8 ELSE $4::float8 END)
                        AND coalesce(m.ts_valid_start, m.created_at)
       ) AS p ON true
       WHERE m.id = ANY($1::uuid[]) AND m.deleted_at IS NULL`,
      [ids, o.context.enabled, o.minChars, o.context.windowMs / 1000, o.context.previous, o.context.noRunWindowMs / 1000, TURN_PREFILTER_SQL]);
    const units: Unit[] = [];
    for (const r of rows) {
      for (const u of this.ownUnits(r.content)) units.push({ memoryId: r.id, tenantId: r.tenant_id, ...u });
      const n = r.no_run ? dialogueContext(r.previous ?? [], r.content, o.context.previous) : r.previous?.length ?? 0;
      if (n > 0) {
        units.push({
          memoryId: r.id, tenantId: r.tenant_id, ord: -1, kind: 'context', content: contextText(r.previous!.slice(-n), r.content),
          previousIds: r.previous_ids!.slice(-n),
        });
      }
    }
    const embedded = units.filter((u) => this.embeds(u));
    const fresh = embedded.length ? await this.deps.embedder.embed(embedded.map((u) => u.content)) : [];
    const vectorOf = new Map(embedded.map((u, i) => [u, fresh[i]]));
    // Stored a few units per transaction (storeParts): a transaction holds the embedded database's
    // one session, and a batch's hundreds of passages in one transaction kept searches waiting for a
    // second or more.
    const unitsOf = new Map<string, Unit[]>(ids.map((id) => [id, []]));
    for (const u of units) unitsOf.get(u.memoryId)?.push(u);
    for (const { clear, units: rows } of storeParts([...unitsOf], STORE_UNITS)) {
      await this.deps.db.tx(async (q) => {
        if (clear.length) await q.query('DELETE FROM memory_passages WHERE memory_id = ANY($1::uuid[])', [clear]);
        if (rows.length === 0) return;
        const p = new Params();
        const tuples = rows.map((u) =>
          `(${p.add(u.memoryId, 'uuid')}, ${p.add(u.ord, 'int')}, ${p.add(u.tenantId)}, ${p.add(u.kind)}, ${p.add(u.content)}, ` +
          `${p.add(vectorOf.has(u) ? vectorParam(vectorOf.get(u)!) : null, 'vector')}, ${p.add(u.previousIds ?? null, 'uuid[]')})`);
        // A memory deleted meanwhile is skipped (the join finds no row).
        await q.query(
          `INSERT INTO memory_passages (memory_id, ord, tenant_id, kind, content, embedding)
           SELECT u.memory_id, u.ord, u.tenant_id, u.kind, u.content,
                  coalesce(u.embedding, l2_normalize(m.embedding + (SELECT sum(e.embedding) FROM memories e WHERE e.id = ANY(u.previous_ids))), m.embedding)
           FROM (VALUES ${tuples.join(', ')}) AS u(memory_id, ord, tenant_id, kind, content, embedding, previous_ids)
           JOIN memories m ON m.id = u.memory_id`, p.values);
      });
    }
    return units.length;
  }
}
