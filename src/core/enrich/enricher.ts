// Write-time enrichment, the step of the memory write pipeline that fills what the client left
// out: the memory type, a title, tags (metadata.tags). A client's own values always win; what was
// inferred is marked in metadata (enriched_by: rules | llm, enriched_fields). The step begins
// when the write begins (so a model call runs alongside the embedding) and finishes once the
// write's entity extraction is known (tags reuse it). Without a model, or when it fails or runs
// out of time, the rules answer: lexical cues for the type (classify.ts), the first clause for
// the title, entity names and noun phrases for tags.
import type { Logger } from 'pino';
import type { LlmClient } from '../../providers/llm/types.js';
import type { Extraction } from '../../providers/entities/types.js';
import { classifyType } from './classify.js';
import { enrichWithLlm } from './llm.js';
import { deriveTags } from './tags.js';
import { deriveTitle } from './title.js';
import {
  ENRICHED_BY_KEY, ENRICHED_FIELDS_KEY, TAGS_KEY, isInferredType,
  type EnrichedBy, type EnrichedField, type EnrichMode, type Inferred,
} from './types.js';

export interface EnricherOptions {
  mode: EnrichMode;
  llm: LlmClient | null;
  /** Longest a write waits for the model, from the start of the write (queueing included). */
  llmTimeoutMs: number;
  /** Model requests in flight at once; others queue, and their wait counts against the timeout. */
  llmConcurrency?: number;
  log?: Pick<Logger, 'warn'>;
}

/** The fields of a write enrichment reads. */
export interface EnrichInput {
  content: string;
  memory_type?: string | null;
  title?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** Values an earlier server step already inferred (an ingest preview): used instead of inferring again. */
export interface Suggestion extends Inferred {
  by: EnrichedBy;
}

/** The fields to set on the write; absent = keep the client's. */
export interface Enrichment {
  memory_type?: string;
  title?: string;
  metadata?: Record<string, unknown>;
}

export interface PendingEnrichment {
  /** What to set, once the write's entity extraction is known (undefined when it failed). */
  finish(extraction?: Extraction): Promise<Enrichment>;
}

const NOTHING: PendingEnrichment = { finish: async () => ({}) };

const given = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/** A small FIFO limit on concurrent model requests. */
class Limiter {
  private active = 0;
  private queue: Array<() => void> = [];
  constructor(private readonly size: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}

export class Enricher {
  private readonly limiter: Limiter;

  constructor(private readonly opts: EnricherOptions) {
    this.limiter = new Limiter(Math.max(1, opts.llmConcurrency ?? 4));
  }

  /** Whether the model answers for writes (else the rules do). */
  get usesLlm(): boolean {
    return this.opts.mode === 'auto' && this.opts.llm !== null;
  }

  /** Enrichment of a new memory: what the input leaves out. */
  begin(input: EnrichInput, suggestion?: Suggestion): PendingEnrichment {
    const metadata = input.metadata ?? {};
    return this.start(input.content, {
      memory_type: !given(input.memory_type),
      title: !given(input.title),
      tags: !Object.prototype.hasOwnProperty.call(metadata, TAGS_KEY),
    }, metadata, suggestion);
  }

  /**
   * After the content of a memory changed: the fields that were inferred from the old content
   * (and that the edit does not set) are inferred again. The result's metadata holds only the
   * marks and tags, to be merged into the stored metadata.
   */
  refresh(content: string, fields: readonly EnrichedField[]): PendingEnrichment {
    return this.start(content, {
      memory_type: fields.includes('memory_type'), title: fields.includes('title'), tags: fields.includes('tags'),
    }, {});
  }

  private start(
    content: string, want: Record<EnrichedField, boolean>, metadata: Record<string, unknown>, suggestion?: Suggestion,
  ): PendingEnrichment {
    // Off: nothing is inferred, but values a client sent back from a preview still count as such.
    const rulesOn = this.opts.mode !== 'off';
    if (!rulesOn && !suggestion) return NOTHING;
    if (!want.memory_type && !want.title && !want.tags) return NOTHING;

    // The model is asked only for what a suggestion does not already hold.
    const fromSuggestion: Inferred = {};
    if (suggestion) {
      if (want.memory_type && isInferredType(suggestion.memory_type)) fromSuggestion.memory_type = suggestion.memory_type;
      if (want.title && given(suggestion.title)) fromSuggestion.title = suggestion.title!.trim();
      if (want.tags && suggestion.tags?.length) fromSuggestion.tags = suggestion.tags;
    }
    const needModel = (want.memory_type && !fromSuggestion.memory_type) || (want.title && !fromSuggestion.title);
    const model = needModel && rulesOn && this.usesLlm ? this.askModel(content) : null;

    return {
      finish: async (extraction) => {
        const fromModel = model ? await model : null;
        const out: Enrichment = {};
        const fields: EnrichedField[] = [];
        let byModel = false;
        let bySuggestionModel = false;
        const pick = <K extends keyof Inferred>(key: K, rule: () => Inferred[K] | null): Inferred[K] | undefined => {
          if (fromSuggestion[key] !== undefined) {
            if (suggestion!.by === 'llm') bySuggestionModel = true;
            return fromSuggestion[key];
          }
          if (fromModel?.[key] !== undefined) {
            byModel = true;
            return fromModel[key];
          }
          return rulesOn ? (rule() ?? undefined) : undefined;
        };
        if (want.memory_type) {
          const t = pick('memory_type', () => classifyType(content).type);
          if (t) {
            out.memory_type = t;
            fields.push('memory_type');
          }
        }
        if (want.title) {
          const t = pick('title', () => deriveTitle(content));
          if (t) {
            out.title = t;
            fields.push('title');
          }
        }
        let tags: string[] | undefined;
        if (want.tags) {
          tags = pick('tags', () => deriveTags(content, extraction));
          if (tags?.length) fields.push('tags');
        }
        if (fields.length === 0) return out;
        const by: EnrichedBy = byModel || bySuggestionModel ? 'llm' : 'rules';
        const marks: Record<string, unknown> = { [ENRICHED_BY_KEY]: by, [ENRICHED_FIELDS_KEY]: fields };
        if (tags?.length) marks[TAGS_KEY] = tags;
        // The client's own metadata keys win over the marks.
        out.metadata = { ...marks, ...metadata };
        return out;
      },
    };
  }

  /** The model's labels, or null when it fails or runs out of time (the rules then answer). */
  private askModel(content: string): Promise<Inferred | null> {
    const deadline = Date.now() + this.opts.llmTimeoutMs;
    const asked = this.limiter
      .run(async () => {
        const left = deadline - Date.now();
        // Its turn came too late: the write has stopped waiting.
        if (left <= 0) return null;
        return enrichWithLlm(this.opts.llm!, content, left);
      })
      .catch((err) => {
        this.opts.log?.warn({ err }, 'LLM enrichment failed; the rules answer');
        return null;
      });
    // A write never waits past the deadline, also while its request is still queued.
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.opts.llmTimeoutMs);
      timer.unref();
    });
    return Promise.race([asked, expired]).finally(() => clearTimeout(timer));
  }
}
