// Ingest (spec 4.3): preview extracts candidate facts from a URL, text or file and writes
// nothing; commit writes chosen facts as memories of one run, keeping the source text as the
// run's parent document; undo soft-deletes a run (rule 4). Memories go through the memory
// service, so embedding, entities, quota and duplicate refusal are the same as any write.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type Caller, mayActAs, requireTrust, resolveAgent, resolveTenant, systemCaller, TRUST } from '../caller.js';
import { DomainError, ValidationError, conflict, invalid } from '../errors.js';
import type { MemoryService } from '../memories/service.js';
import type { DocumentService } from '../documents/service.js';
import { DOC_ID_PATTERN, SYSTEM_DOC_MAX_BYTES } from '../documents/rules.js';
import type { LlmClient } from '../../providers/llm/types.js';
import { docHash, MAX_DROPPED, type DroppedUnit, type DropReason, type ExtractedFact } from './facts.js';
import type { EnrichedBy, InferredType } from '../enrich/types.js';
import { canonicalType } from '../memories/types.js';
import { findFacts, type FactExtractor } from './llm-facts.js';
import { mapLimited } from './map-limited.js';
import { type SourceLimits, type SourceText, sourceFromContent, sourceFromFile, sourceFromUrl, tooLarge } from './source.js';

/** Collection of the parent documents of ingest runs (doc_id = run id). */
export const INGEST_COLLECTION = 'ingest-sources';
/** Author of ingested memories when the request names none and the key is not bound to an agent. */
export const DEFAULT_INGEST_AGENT = 'ingest-agent';
/** `metadata.source` of every ingested memory: undo deletes only rows carrying it. */
export const INGEST_SOURCE = 'ingest';
export const MAX_COMMIT_FACTS = 1000;
export const MAX_PREVIEW_FACTS = 1000;
/** Memory writes of one commit in flight at once: the embedder batches concurrent calls. */
const WRITE_CONCURRENCY = 8;
/** Errors listed in a commit response (all are counted in `errored`). */
const MAX_LISTED_ERRORS = 50;

export interface IngestDeps {
  memories: MemoryService;
  documents: DocumentService;
  llm: LlmClient | null;
  limits: SourceLimits;
  log?: Pick<Logger, 'warn'>;
}

interface PreviewOptions {
  tenant_id?: string;
  focus?: string;
  source_uri?: string;
  max_facts?: number;
  include_content?: boolean;
  /** Also report what was dropped and why. */
  explain?: boolean;
}

/** A previewed fact, with who suggested its type and title. */
export interface PreviewFact extends ExtractedFact {
  enriched_by: EnrichedBy;
}

export interface PreviewInput extends PreviewOptions {
  url?: string;
  content?: string;
}

export interface FilePreviewInput extends PreviewOptions {
  file: Buffer;
  content_type: string;
  filename?: string;
}

export interface Preview {
  url: string | null;
  /** Characters of the extracted text. */
  content_length: number;
  facts: ExtractedFact[];
  doc_hash: string;
  sections: number;
  title: string | null;
  format: string;
  extractor: FactExtractor;
  /** The extracted text, when asked for (to pass back on commit as the run's source). */
  content?: string;
  dropped?: DroppedUnit[];
  dropped_counts?: Partial<Record<DropReason, number>>;
}

export interface CommitFact {
  content: string;
  suggested_type?: string;
  memory_type?: string;
  source_uri?: string | null;
  salience?: number;
  title?: string | null;
  section?: string | null;
  /** Set by preview: suggested_type and title were suggested by it, and are marked as inferred. */
  enriched_by?: EnrichedBy;
  metadata?: Record<string, unknown>;
}

export interface CommitInput {
  tenant_id?: string;
  fleet_id?: string;
  agent_id?: string;
  facts: CommitFact[];
  run_id?: string;
  doc_hash?: string;
  /** The source text, kept as the run's parent document (default: the committed facts). */
  content?: string;
  url?: string;
  source_uri?: string;
  title?: string;
}

export interface CommitError {
  index: number;
  status: number;
  detail: string;
}

export interface CommitResult {
  facts_extracted: number;
  memories_created: number;
  skipped_duplicates: number;
  errored: number;
  run_id: string;
  ingest_ms: number;
  errors: CommitError[];
}

export interface UndoResult {
  deleted: number;
  run_id: string;
  document_deleted: boolean;
}

/** Cuts text so that it fits `maxBytes` once JSON-encoded (escapes can grow it). */
function fitJson(text: string, maxBytes: number): { text: string; cut: boolean } {
  let t = text;
  let size = Buffer.byteLength(JSON.stringify(t));
  if (size <= maxBytes) return { text: t, cut: false };
  while (size > maxBytes) {
    t = t.slice(0, Math.floor(t.length * (maxBytes / size) * 0.98));
    size = Buffer.byteLength(JSON.stringify(t));
  }
  return { text: t, cut: true };
}

export class IngestService {
  constructor(private readonly deps: IngestDeps) {}

  /** Ingest writes memories: the tenant must be writable by the caller, preview included. */
  private tenant(caller: Caller, tenant: string | undefined): string {
    this.checkCaller(caller);
    return resolveTenant(caller, tenant, 'write');
  }

  /** Whether the caller may ingest at all: checked before an upload is read, when its tenant is not known yet. */
  checkCaller(caller: Caller): void {
    requireTrust(caller, TRUST.standard, 'Ingest');
  }

  async preview(caller: Caller, input: PreviewInput): Promise<Preview> {
    const tenant = this.tenant(caller, input.tenant_id);
    const hasUrl = input.url !== undefined && input.url !== '';
    const hasContent = input.content !== undefined;
    if (hasUrl && hasContent) throw invalid(['body', 'content'], 'Give either url or content, not both', 'value_error');
    if (!hasUrl && !hasContent) {
      throw new ValidationError([
        { loc: ['body', 'url'], msg: 'Either url or content is required', type: 'missing', input: null, ctx: {} },
        { loc: ['body', 'content'], msg: 'Either url or content is required', type: 'missing', input: null, ctx: {} },
      ]);
    }
    const source = hasUrl ? await sourceFromUrl(input.url!, this.deps.limits) : sourceFromContent(input.content!, this.deps.limits);
    return this.previewOf(caller, tenant, source, input);
  }

  async previewFile(caller: Caller, input: FilePreviewInput): Promise<Preview> {
    const tenant = this.tenant(caller, input.tenant_id);
    const source = await sourceFromFile(input.file, input.content_type, input.filename, this.deps.limits);
    return this.previewOf(caller, tenant, source, input);
  }

  private async previewOf(caller: Caller, tenant: string, source: SourceText, opts: PreviewOptions): Promise<Preview> {
    const found = await findFacts(
      source.text,
      { focus: opts.focus, sourceUri: opts.source_uri ?? source.url, maxFacts: opts.max_facts, explain: opts.explain, title: source.title },
      this.deps.llm,
      (err) => this.deps.log?.warn({ err }, 'LLM fact extraction failed; using the rule-based extractor'),
    );
    // Facts the tenant already holds (as far as the caller can see) are not offered again.
    const stored = await this.deps.memories.storedContents(caller, { tenant_id: tenant }, found.facts.map((f) => f.content));
    const facts: PreviewFact[] = [];
    const dropped = found.dropped ? [...found.dropped] : undefined;
    const counts = found.dropped_counts ? { ...found.dropped_counts } : undefined;
    for (const f of found.facts) {
      if (!stored.has(f.content)) {
        facts.push({ ...f, enriched_by: found.extractor });
        continue;
      }
      if (counts) counts.already_stored = (counts.already_stored ?? 0) + 1;
      if (dropped && dropped.length < MAX_DROPPED) dropped.push({ text: f.content.slice(0, 200), reason: 'already_stored', section: f.section });
    }
    return {
      url: source.url ?? null,
      content_length: source.text.length,
      facts,
      doc_hash: docHash(source.text),
      sections: found.sections,
      title: source.title ?? null,
      format: source.format,
      extractor: found.extractor,
      ...(opts.include_content ? { content: source.text } : {}),
      ...(opts.explain ? { dropped: dropped ?? [], dropped_counts: counts ?? {} } : {}),
    };
  }

  async commit(caller: Caller, input: CommitInput): Promise<CommitResult> {
    const started = performance.now();
    const tenant = this.tenant(caller, input.tenant_id);
    // Checked before anything is written: an agent-bound key may not write as another agent.
    const agent = resolveAgent(caller, input.agent_id ?? caller.agentId ?? DEFAULT_INGEST_AGENT)!;
    const runId = input.run_id ?? randomUUID();
    const facts = input.facts;
    if (facts.length > MAX_COMMIT_FACTS) {
      throw invalid(['body', 'facts'], `List should have at most ${MAX_COMMIT_FACTS} items`, 'too_long', null, { max_length: MAX_COMMIT_FACTS });
    }
    let hash = input.doc_hash ?? null;
    if (input.content !== undefined) {
      const bytes = Buffer.byteLength(input.content, 'utf8');
      if (bytes > this.deps.limits.maxBytes) throw tooLarge('content', bytes, this.deps.limits.maxBytes);
      const actual = docHash(input.content);
      if (hash !== null && hash !== actual) {
        throw invalid(['body', 'doc_hash'], 'doc_hash does not match the content sent with it', 'value_error', hash, { expected: actual });
      }
      hash = actual;
    }

    // A run belongs to its writer: another agent reusing its id would replace its parent document.
    const owner = await this.runWriter(tenant, runId);
    if (owner !== null && owner !== agent) {
      throw conflict(`Run "${runId}" belongs to another writer; commit under a new run_id`);
    }
    // The parent document first: if it cannot be written, no memory of the run exists either.
    await this.writeParent(tenant, runId, agent, input, hash);
    const written = await this.writeFacts(caller, input, { tenant, agent, runId, hash });
    return {
      facts_extracted: facts.length,
      memories_created: written.created,
      skipped_duplicates: written.duplicates,
      errored: written.errors.length,
      run_id: runId,
      ingest_ms: Math.round(performance.now() - started),
      errors: written.errors.slice(0, MAX_LISTED_ERRORS),
    };
  }

  private async writeParent(tenant: string, runId: string, agent: string, input: CommitInput, hash: string | null): Promise<void> {
    const fromRequest = input.content !== undefined;
    const source = fromRequest ? input.content! : input.facts.map((f) => f.content.trim()).join('\n');
    // The envelope fields are small; the text gets the rest of the system document budget.
    const { text, cut } = fitJson(source, SYSTEM_DOC_MAX_BYTES - 64 * 1024);
    // The parent lives in a collection only ingest writes: the service writes it as itself.
    await this.deps.documents.write(systemCaller(tenant), {
      collection: INGEST_COLLECTION,
      doc_id: runId,
      data: {
        run_id: runId,
        agent_id: agent,
        fleet_id: input.fleet_id ?? null,
        url: input.url ?? null,
        source_uri: input.source_uri ?? input.url ?? null,
        title: input.title ?? null,
        doc_hash: hash,
        content_source: fromRequest ? 'request' : 'facts',
        content: text,
        ...(cut ? { content_truncated: true } : {}),
        facts: input.facts.length,
        committed_at: new Date().toISOString(),
      },
      text_fields: ['title', 'content'],
    });
  }

  /**
   * The one place a commit's memories are written: one memory-service write per fact, a few in
   * flight so the embedder can batch them. Exact duplicates (409) are skipped and counted; other
   * refusals are counted as errors; once the tenant's quota is reached the rest are not tried.
   */
  private async writeFacts(
    caller: Caller, input: CommitInput, run: { tenant: string; agent: string; runId: string; hash: string | null },
  ): Promise<{ created: number; duplicates: number; errors: CommitError[] }> {
    let created = 0;
    let duplicates = 0;
    const errors: CommitError[] = [];
    let quotaReached: DomainError | null = null;
    await mapLimited(input.facts, WRITE_CONCURRENCY, async (fact, index) => {
      if (quotaReached) {
        errors.push({ index, status: 429, detail: quotaReached.message });
        return;
      }
      try {
        // suggested_type (and, from a preview, the title) are the server's suggestions: written as
        // inferred values, while memory_type and a title of the client's own are the client's.
        const suggested = fact.enriched_by !== undefined;
        await this.deps.memories.create(caller, {
          tenant_id: run.tenant,
          fleet_id: input.fleet_id ?? null,
          agent_id: run.agent,
          content: fact.content,
          title: suggested ? null : (fact.title ?? null),
          memory_type: fact.memory_type ?? null,
          weight: fact.salience ?? null,
          source_uri: fact.source_uri ?? input.source_uri ?? input.url ?? null,
          run_id: run.runId,
          // Set last: a fact's own metadata cannot take the marker undo relies on.
          metadata: {
            ...(fact.section ? { section: fact.section } : {}),
            ...(fact.metadata ?? {}),
            ...(run.hash ? { doc_hash: run.hash } : {}),
            source: INGEST_SOURCE,
          },
        }, {
          suggestion: {
            by: fact.enriched_by ?? 'rules',
            ...(fact.suggested_type ? { memory_type: canonicalType(fact.suggested_type) as InferredType } : {}),
            ...(suggested && fact.title ? { title: fact.title } : {}),
          },
        });
        created++;
      } catch (err) {
        if (err instanceof DomainError && err.status === 409) {
          duplicates++;
          return;
        }
        if (err instanceof DomainError && err.status === 429) quotaReached = err;
        if (!(err instanceof DomainError || err instanceof ValidationError)) this.deps.log?.warn({ err }, 'ingest memory write failed');
        errors.push({
          index,
          status: err instanceof DomainError ? err.status : err instanceof ValidationError ? 422 : 500,
          detail: err instanceof DomainError || err instanceof ValidationError ? err.message : 'The memory could not be written',
        });
      }
    });
    errors.sort((a, b) => a.index - b.index);
    return { created, duplicates, errors };
  }

  /** The agent that wrote a run (from its parent document); null when the run has none. */
  private async runWriter(tenant: string, runId: string): Promise<string | null> {
    if (!DOC_ID_PATTERN.test(runId)) return null;
    const doc = await this.deps.documents.read(systemCaller(tenant), { collection: INGEST_COLLECTION, doc_id: runId }).catch((err) => {
      if (err instanceof DomainError && err.status === 404) return null;
      throw err;
    });
    if (!doc) return null;
    return typeof doc.data.agent_id === 'string' ? doc.data.agent_id : DEFAULT_INGEST_AGENT;
  }

  /**
   * Rule 4: soft-deletes the caller's tenant's memories of the run that carry
   * `metadata.source = "ingest"` and that the caller may delete (an agent-bound key: its own),
   * then deletes the parent document if the caller may act as the run's writer.
   */
  async undo(caller: Caller, runId: string, q: { tenant_id?: string }): Promise<UndoResult> {
    const tenant = this.tenant(caller, q.tenant_id);
    const deleted = await this.deps.memories.removeWhere(caller, {
      tenant_id: tenant, run_id: runId, metadata_filter: { source: INGEST_SOURCE },
    });
    let documentDeleted = false;
    // Best effort: a run written without a parent (or one whose id is no doc_id) still undoes.
    const writer = await this.runWriter(tenant, runId);
    if (writer !== null && mayActAs(caller, writer)) {
      try {
        await this.deps.documents.delete(systemCaller(tenant), { collection: INGEST_COLLECTION, doc_id: runId });
        documentDeleted = true;
      } catch (err) {
        if (!(err instanceof DomainError && err.status === 404)) {
          this.deps.log?.warn({ err }, 'deleting the parent document of an ingest run failed');
        }
      }
    }
    return { deleted, run_id: runId, document_deleted: documentDeleted };
  }
}
