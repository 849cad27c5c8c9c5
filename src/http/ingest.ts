// Ingest endpoints (spec 4.3, rules 1–4; DEFAULTS "Ingest"): preview from a URL or text,
// preview of an uploaded file (multipart), commit of chosen facts, undo of a run.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { CLIENT_MEMORY_TYPES } from '../core/memories/types.js';
import { MAX_COMMIT_FACTS, MAX_PREVIEW_FACTS, type CommitInput } from '../core/ingest/service.js';
import { DEFAULT_MAX_FACTS, DROP_REASONS } from '../core/ingest/facts.js';
import { INFERRED_TYPES, TITLE_MAX_CHARS } from '../core/enrich/types.js';
import { tooLarge } from '../core/ingest/source.js';
import { DomainError, ValidationError, type ValidationItem } from '../core/errors.js';
import { IdempotencyHeaders, StrEnum, nullable } from './memory-schemas.js';
import { faultItems } from './validation.js';
import { faultyStrings } from '../core/input.js';
import { Ident, OptTenantId, TenantId, errorResponses } from './schemas.js';

/** Room for the JSON envelope or the multipart framing around a payload of the full cap. */
const ENVELOPE_BYTES = 64 * 1024;
const FIELD_MAX_BYTES = 64 * 1024;

const Focus = Type.String({ maxLength: 1000, description: 'Terms the caller cares about: facts mentioning them rank higher' });
const SourceUri = Type.String({ maxLength: 2048 });
const MaxFacts = Type.Integer({ minimum: 1, maximum: MAX_PREVIEW_FACTS, description: `Most facts returned (default ${DEFAULT_MAX_FACTS}), the most salient kept` });
const IncludeContent = Type.Boolean({ description: 'Also return the extracted text (to pass back to commit as the run\'s source)' });
const Explain = Type.Boolean({ description: 'Also return what was dropped and why (`dropped`, `dropped_counts`)' });
const EnrichedBy = StrEnum(['rules', 'llm'] as const, {
  description: 'Who suggested the type and title (from preview). Sent back on commit, they are marked as inferred',
});
const Section = Type.String({ maxLength: 1000, description: 'Headings above the fact, outermost first' });
const RunId = Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,99}$', description: 'Run id; also the doc_id of the parent document' });
const DocHash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'sha256 of the source text (from preview)' });

const PreviewBody = Type.Object({
  tenant_id: OptTenantId,
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL to fetch; give url or content' })),
  content: Type.Optional(Type.String({ minLength: 1, description: 'Text to extract facts from; give url or content' })),
  focus: Type.Optional(Focus),
  source_uri: Type.Optional(SourceUri),
  max_facts: Type.Optional(MaxFacts),
  include_content: Type.Optional(IncludeContent),
  explain: Type.Optional(Explain),
}, { additionalProperties: false });

const FactOut = Type.Object({
  content: Type.String(),
  suggested_type: Type.String({ enum: [...INFERRED_TYPES] }),
  title: Type.String({ maxLength: TITLE_MAX_CHARS }),
  source_uri: Type.Union([Type.String(), Type.Null()]),
  salience: Type.Number({ minimum: 0, maximum: 1 }),
  section: Type.Union([Type.String(), Type.Null()], { description: 'Headings above the fact, outermost first; null before any heading' }),
  enriched_by: Type.String({ enum: ['rules', 'llm'], description: 'Who suggested suggested_type and title' }),
});

const DroppedOut = Type.Object({
  text: Type.String({ description: 'The unit, cut at 200 characters' }),
  reason: Type.String({ enum: [...DROP_REASONS] }),
  section: Type.Union([Type.String(), Type.Null()]),
});

const PreviewResult = Type.Object({
  url: Type.Union([Type.String(), Type.Null()], { description: 'The fetched URL after redirects; null for text and files' }),
  content_length: Type.Integer({ description: 'Characters of the extracted text' }),
  facts: Type.Array(FactOut),
  doc_hash: Type.String({ description: 'sha256 (hex) of the extracted text, whitespace-normalised' }),
  sections: Type.Integer(),
  title: Type.Union([Type.String(), Type.Null()]),
  format: Type.String({ description: 'md, txt, csv, html, pdf, docx, pptx, xlsx, epub, rtf or odt' }),
  extractor: Type.String({ enum: ['llm', 'rules'], description: 'llm when the configured model extracted the facts' }),
  content: Type.Optional(Type.String({ description: 'The extracted text (include_content=true)' })),
  dropped: Type.Optional(Type.Array(DroppedOut, { description: 'explain=true: units that became no fact, in order (at most 1,000)' })),
  dropped_counts: Type.Optional(Type.Record(Type.String(), Type.Integer(), { description: 'explain=true: units dropped per reason' })),
}, { $id: 'IngestPreview' });

const CommitFact = Type.Object({
  content: Type.String({ minLength: 1, description: 'Becomes the memory content (1 to 10,000 characters after trimming)' }),
  suggested_type: Type.Optional(StrEnum(CLIENT_MEMORY_TYPES)),
  memory_type: Type.Optional(StrEnum(CLIENT_MEMORY_TYPES, { description: 'Overrides suggested_type' })),
  source_uri: Type.Optional(nullable(SourceUri)),
  salience: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Becomes the memory weight' })),
  title: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
  section: Type.Optional(nullable(Section)),
  enriched_by: Type.Optional(EnrichedBy),
  metadata: Type.Optional(Type.Unsafe<Record<string, unknown>>(Type.Object({}, { additionalProperties: true }))),
}, { additionalProperties: false });

const CommitBody = Type.Object({
  tenant_id: OptTenantId,
  fleet_id: Type.Optional(Ident),
  agent_id: Type.Optional(Ident),
  facts: Type.Array(CommitFact, { minItems: 1, maxItems: MAX_COMMIT_FACTS }),
  run_id: Type.Optional(RunId),
  doc_hash: Type.Optional(DocHash),
  content: Type.Optional(Type.String({ description: 'The source text, kept as the run\'s parent document (default: the facts)' })),
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  source_uri: Type.Optional(SourceUri),
  title: Type.Optional(Type.String({ maxLength: 500 })),
}, { additionalProperties: false });

const CommitResult = Type.Object({
  facts_extracted: Type.Integer({ description: 'Facts in the request' }),
  memories_created: Type.Integer(),
  skipped_duplicates: Type.Integer({ description: 'Facts whose exact content the writing agent already holds in the fleet' }),
  errored: Type.Integer(),
  run_id: Type.String(),
  ingest_ms: Type.Integer(),
  errors: Type.Array(Type.Object({ index: Type.Integer(), status: Type.Integer(), detail: Type.String() }),
    { description: 'The first errored facts (index into facts)' }),
});

const UndoParams = Type.Object({ run_id: Type.String({ minLength: 1, maxLength: 200 }) });
const UndoQuery = Type.Object({ tenant_id: OptTenantId });
const UndoResult = Type.Object({
  deleted: Type.Integer({ description: 'Memories soft-deleted; 0 is a valid answer' }),
  run_id: Type.String(),
  document_deleted: Type.Boolean({ description: 'Whether a parent document was deleted' }),
});

// The multipart body as documented; it is read and checked by the handler, not by the validator.
const FileBody = Type.Object({
  file: Type.String({ format: 'binary', description: 'The document; its part content type selects the reader and must match the bytes' }),
  tenant_id: TenantId,
  focus: Type.Optional(Focus),
  source_uri: Type.Optional(SourceUri),
  max_facts: Type.Optional(MaxFacts),
  include_content: Type.Optional(IncludeContent),
  explain: Type.Optional(Explain),
});

interface UploadedForm {
  file?: { data: Buffer; mimetype: string; filename?: string };
  fields: Map<string, string>;
}

/** Multipart errors of @fastify/multipart, as this API answers them. */
function multipartError(err: unknown, maxBytes: number): unknown {
  const code = (err as { code?: string })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge('The file', null, maxBytes);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new DomainError(413, 'Payload Too Large', 'Send one file and at most a few form fields');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new DomainError(415, 'Unsupported Media Type', 'Upload the file as multipart/form-data');
  }
  if (code === 'FST_PROTO_VIOLATION') return new DomainError(400, 'Bad Request', 'Invalid form field name');
  return err;
}

async function readForm(req: FastifyRequest, maxBytes: number): Promise<UploadedForm> {
  const form: UploadedForm = { fields: new Map() };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        // Over the cap toBuffer throws: busboy stops counting at fileSize, so the rest is never buffered.
        form.file = { data: await part.toBuffer(), mimetype: part.mimetype, filename: part.filename || undefined };
      } else if (typeof part.value === 'string') {
        form.fields.set(part.fieldname, part.value);
      }
    }
  } catch (err) {
    throw multipartError(err, maxBytes);
  }
  return form;
}

/** Form fields are strings: checked here against the same bounds as the JSON preview. */
function checkFields(form: UploadedForm): {
  tenant_id: string; focus?: string; source_uri?: string; max_facts?: number; include_content?: boolean; explain?: boolean;
} {
  const items: ValidationItem[] = [];
  const f = form.fields;
  const str = (name: string, max: number, required = false): string | undefined => {
    const v = f.get(name);
    if (v === undefined || v === '') {
      if (required) items.push({ loc: ['body', name], msg: 'Field required', type: 'missing', input: null, ctx: {} });
      return undefined;
    }
    if (v.length > max) items.push({ loc: ['body', name], msg: `String should have at most ${max} characters`, type: 'string_too_long', input: null, ctx: { max_length: max } });
    return v;
  };
  if (!form.file) items.push({ loc: ['body', 'file'], msg: 'A file part is required', type: 'missing', input: null, ctx: {} });
  items.push(...faultItems(faultyStrings(Object.fromEntries(f)), ['body']));
  const tenant = str('tenant_id', 200, true);
  const focus = str('focus', 1000);
  const sourceUri = str('source_uri', 2048);
  let maxFacts: number | undefined;
  const rawMax = f.get('max_facts');
  if (rawMax !== undefined && rawMax !== '') {
    maxFacts = Number(rawMax);
    if (!Number.isInteger(maxFacts) || maxFacts < 1 || maxFacts > MAX_PREVIEW_FACTS) {
      items.push({ loc: ['body', 'max_facts'], msg: `Input should be an integer from 1 to ${MAX_PREVIEW_FACTS}`, type: 'int_parsing', input: rawMax, ctx: { ge: 1, le: MAX_PREVIEW_FACTS } });
    }
  }
  const bool = (name: string): boolean | undefined => {
    const raw = f.get(name);
    if (raw === undefined || raw === '') return undefined;
    if (/^(true|1)$/i.test(raw)) return true;
    if (/^(false|0)$/i.test(raw)) return false;
    items.push({ loc: ['body', name], msg: 'Input should be a valid boolean', type: 'bool_parsing', input: raw, ctx: {} });
    return undefined;
  };
  const includeContent = bool('include_content');
  const explain = bool('explain');
  if (items.length) throw new ValidationError(items);
  return { tenant_id: tenant!, focus, source_uri: sourceUri, max_facts: maxFacts, include_content: includeContent, explain };
}

export const ingestRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  const maxBytes = s.config.ingestMaxBytes;
  const tags = ['ingest'];
  app.addSchema(PreviewResult);
  const previewRef = Type.Ref('IngestPreview');
  // Scoped to this plugin: only the upload route parses multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 12, parts: 13, fieldSize: FIELD_MAX_BYTES, headerPairs: 100 },
    throwFileSizeLimit: true,
  });

  app.post('/api/v1/ingest/preview', {
    bodyLimit: maxBytes + ENVELOPE_BYTES,
    schema: {
      tags, summary: 'Extract candidate facts from a URL or text; writes nothing',
      description:
        'Give `url` (fetched over http(s); private, loopback, link-local and metadata addresses are refused unless ' +
        'LOCI_FETCH_ALLOW names them; redirects are re-checked) or `content`. The fetched document is read by its ' +
        'content type (checked against its bytes). Facts are extracted by the configured LLM, else by rules ' +
        '(`extractor` says which). Nothing is stored. Over 3 MB: 413; unsupported type: 415; upstream failure: 502/504.',
      body: PreviewBody,
      response: { 200: previewRef, ...errorResponses(413, 415, 502, 504) },
    },
  }, async (req) => s.ingest.preview(req.caller, req.body as Static<typeof PreviewBody>));

  app.post('/api/v1/ingest/file', {
    // Rule 3, first check: a declared length beyond the cap (plus framing) is refused before any byte is read.
    onRequest: async (req, reply) => {
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes + ENVELOPE_BYTES) {
        // The unread body is not waited for: the connection closes after the answer.
        reply.header('connection', 'close');
        throw tooLarge('The upload', declared, maxBytes);
      }
    },
    // The multipart body is parsed and checked in the handler (fields arrive as strings around the file).
    validatorCompiler: () => () => true,
    schema: {
      tags, summary: 'Extract candidate facts from an uploaded file; writes nothing',
      description:
        'multipart/form-data with one `file` part and the fields below. The part\'s content type selects the reader ' +
        '(md, txt, csv, html, pdf, docx, pptx, xlsx, epub, rtf, odt; a generic type falls back to the file name and the ' +
        'bytes) and must agree with the file\'s magic bytes (415 otherwise). The file may be at most 3 MB, checked on ' +
        'Content-Length before the upload is read and again on the file and on the extracted text (413). Zip-based ' +
        'formats that inflate beyond the limits are refused (413). The answer is the preview of POST /ingest/preview.',
      consumes: ['multipart/form-data'],
      body: FileBody,
      response: { 200: previewRef, ...errorResponses(413, 415) },
    },
  }, async (req) => {
    s.ingest.checkCaller(req.caller);
    const form = await readForm(req, maxBytes);
    const fields = checkFields(form);
    const file = form.file!;
    return s.ingest.previewFile(req.caller, { ...fields, file: file.data, content_type: file.mimetype, filename: file.filename });
  });

  app.post('/api/v1/ingest/commit', {
    bodyLimit: maxBytes + ENVELOPE_BYTES,
    config: { idempotent: true },
    schema: {
      tags, summary: 'Write previewed facts as memories of one ingest run',
      description:
        'Each fact becomes a memory (embedded, entities extracted, quota applied) with `run_id` and ' +
        '`metadata.source = "ingest"`, written by `agent_id` (default: the key\'s agent, else "ingest-agent"). A fact ' +
        'whose exact content already exists is skipped and counted; other refusals are counted in `errored`. The ' +
        'source text (`content`, else the facts) is kept as the document `ingest-sources/<run_id>`. Reusing a ' +
        'run_id adds to that run and replaces its parent document.',
      headers: IdempotencyHeaders,
      body: CommitBody,
      response: { 200: CommitResult, ...errorResponses(409, 413) },
    },
  }, async (req) => s.ingest.commit(req.caller, req.body as CommitInput));

  app.post('/api/v1/ingest/undo/:run_id', {
    schema: {
      tags, summary: 'Undo an ingest run',
      description:
        'Soft-deletes every memory of the tenant whose run_id matches and whose metadata.source is "ingest" ' +
        '(an agent-bound key: only its own), and deletes the run\'s parent document if there is one. ' +
        '`deleted: 0` is a valid answer (nothing matched, or already undone).',
      params: UndoParams,
      querystring: UndoQuery,
      response: { 200: UndoResult, ...errorResponses() },
    },
  }, async (req) => {
    const p = req.params as Static<typeof UndoParams>;
    return s.ingest.undo(req.caller, p.run_id, req.query as Static<typeof UndoQuery>);
  });
};
