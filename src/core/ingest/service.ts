// Ingest (spec 4.3): preview extracts candidate facts from a URL, text or file and writes
// nothing; commit writes chosen facts as memories of one run, keeping the source text as the
// run's parent document; undo soft-deletes a run (rule 4). Memories go through the memory
// service, so embedding, entities, quota and duplicate refusal are the same as any write.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type Caller, requireTrust, resolveAgent, resolveTenant, TRUST } from '../caller.js';
import { ApiError, ValidationError, invalid } from '../../http/errors.js';
import type { MemoryService } from '../memories/service.js';
import type { DocumentService } from '../documents/service.js';
import { DOC_ID_PATTERN, SYSTEM_DOC_MAX_BYTES } from '../documents/rules.js';
import type { LlmClient } from '../../providers/llm/types.js';
import { docHash, type ExtractedFact } from './facts.js';
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
  tenant_id: string;
  focus?: string;
  source_uri?: string;
  max_facts?: number;
  include_content?: boolean;
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
}

export interface CommitFact {
  content: string;
  suggested_type?: string;
  memory_type?: string;
  source_uri?: string | null;
  salience?: number;
  title?: string | null;
  metadata?: Record<string, unknown>;
}

export interface CommitInput {
  tenant_id: string;
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
    requireTrust(caller, TRUST.standard, 'Ingest');
    return resolveTenant(caller, tenant, 'write');
  }

  async preview(caller: Caller, input: PreviewInput): Promise<Preview> {
    this.tenant(caller, input.tenant_id);
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
    return this.previewOf(source, input);
  }

  async previewFile(caller: Caller, input: FilePreviewInput): Promise<Preview> {
    this.tenant(caller, input.tenant_id);
    const source = await sourceFromFile(input.file, input.content_type, input.filename, this.deps.limits);
    return this.previewOf(source, input);
  }

  private async previewOf(source: SourceText, opts: PreviewOptions): Promise<Preview> {
    const found = await findFacts(
      source.text,
      { focus: opts.focus, sourceUri: opts.source_uri ?? source.url, maxFacts: opts.max_facts },
      this.deps.llm,
      (err) => this.deps.log?.warn({ err }, 'LLM fact extraction failed; using the rule-based extractor'),
    );
    return {
      url: source.url ?? null,
      content_length: source.text.length,
      facts: found.facts,
      doc_hash: docHash(source.text),
      sections: found.sections,
      title: source.title ?? null,
      format: source.format,
      extractor: found.extractor,
      ...(opts.include_content ? { content: source.text } : {}),
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
    await this.deps.documents.write({
      tenant_id: tenant,
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
    }, { system: true });
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
    let quotaReached: ApiError | null = null;
    await mapLimited(input.facts, WRITE_CONCURRENCY, async (fact, index) => {
      if (quotaReached) {
        errors.push({ index, status: 429, detail: quotaReached.message });
        return;
      }
      try {
        await this.deps.memories.create(caller, {
          tenant_id: run.tenant,
          fleet_id: input.fleet_id ?? null,
          agent_id: run.agent,
          content: fact.content,
          title: fact.title ?? null,
          memory_type: fact.memory_type ?? fact.suggested_type ?? 'fact',
          weight: fact.salience ?? null,
          source_uri: fact.source_uri ?? input.source_uri ?? input.url ?? null,
          run_id: run.runId,
          // Set last: a fact's own metadata cannot take the marker undo relies on.
          metadata: { ...(fact.metadata ?? {}), ...(run.hash ? { doc_hash: run.hash } : {}), source: INGEST_SOURCE },
        });
        created++;
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          duplicates++;
          return;
        }
        if (err instanceof ApiError && err.status === 429) quotaReached = err;
        if (!(err instanceof ApiError || err instanceof ValidationError)) this.deps.log?.warn({ err }, 'ingest memory write failed');
        errors.push({
          index,
          status: err instanceof ApiError ? err.status : err instanceof ValidationError ? 422 : 500,
          detail: err instanceof ApiError || err instanceof ValidationError ? err.message : 'The memory could not be written',
        });
      }
    });
    errors.sort((a, b) => a.index - b.index);
    return { created, duplicates, errors };
  }

  /**
   * Rule 4: soft-deletes the caller's tenant's memories of the run that carry
   * `metadata.source = "ingest"`, then deletes the parent document if there is one.
   */
  async undo(caller: Caller, runId: string, q: { tenant_id: string }): Promise<UndoResult> {
    const tenant = this.tenant(caller, q.tenant_id);
    const deleted = await this.deps.memories.removeWhere(caller, {
      tenant_id: tenant, run_id: runId, metadata_filter: { source: INGEST_SOURCE },
    });
    let documentDeleted = false;
    // Best effort: a run written without a parent (or one whose id is no doc_id) still undoes.
    if (DOC_ID_PATTERN.test(runId)) {
      try {
        documentDeleted = await this.deps.documents.delete(
          { tenant_id: tenant, collection: INGEST_COLLECTION, doc_id: runId }, { system: true });
      } catch (err) {
        this.deps.log?.warn({ err }, 'deleting the parent document of an ingest run failed');
      }
    }
    return { deleted, run_id: runId, document_deleted: documentDeleted };
  }
}
