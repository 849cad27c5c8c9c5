// Pure rules of a skill (spec 2.5, 3.2): its fields and caps, who may claim which `source`,
// the states and which inbox action is allowed from which state.
import { createHash } from 'node:crypto';
import { forbidden, ValidationError, type ValidationItem } from '../errors.js';
import { DOC_ID_PATTERN, isPlainObject } from '../documents/rules.js';

export const SKILLS_COLLECTION = 'skills';
export const SLUG_PATTERN = DOC_ID_PATTERN;
export const CONTENT_MAX_BYTES = 40_000;
export const NAME_MAX_CHARS = 200;
export const DOMAIN_MAX_CHARS = 100;
export const SUMMARY_MAX_CHARS = 2_000;
export const MAX_TAGS = 20;

export const SKILL_STATES = ['candidate', 'staged', 'active', 'rejected', 'quarantined', 'stale', 'deprecated'] as const;
export type SkillState = (typeof SKILL_STATES)[number];
export const SKILL_SOURCES = ['agent', 'manual', 'forge', 'imported'] as const;
export type SkillSource = (typeof SKILL_SOURCES)[number];
export const SKILL_KINDS = ['create', 'update'] as const;
export type SkillKind = (typeof SKILL_KINDS)[number];

/**
 * Who is writing: a regular caller (agent), an admin (trust 3), the Forge worker, or the
 * internal import path. Worker and migration are never derived from a request.
 */
export type SkillRole = 'agent' | 'admin' | 'worker' | 'migration';

const SOURCES_BY_ROLE: Record<SkillRole, readonly SkillSource[]> = {
  agent: ['agent'],
  admin: ['agent', 'manual'],
  worker: ['forge'],
  migration: ['imported'],
};
const DEFAULT_SOURCE: Record<SkillRole, SkillSource> = { agent: 'agent', admin: 'manual', worker: 'forge', migration: 'imported' };

/** Keys only the service sets; dropped from what a caller sends. */
export const SERVER_KEYS = [
  'status', 'content_hash', 'fingerprint', 'scan', 'origin', 'gates', 'deferred_at', 'review', 'evidence', 'cites', 'superseded_by',
] as const;

/** Inbox actions and the states each may start from (spec 3.2); anything else is a 409. */
export const INBOX_ACTIONS = {
  approve: ['staged'],
  edit: ['staged'],
  reject: ['staged', 'quarantined'],
  quarantine: ['staged'],
  defer: ['staged'],
} as const satisfies Record<string, readonly SkillState[]>;
export type InboxAction = keyof typeof INBOX_ACTIONS;

export const canAct = (action: InboxAction, state: string) => (INBOX_ACTIONS[action] as readonly string[]).includes(state);

export const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');
export const contentHash = (content: string) => `sha256:${createHash('sha256').update(content, 'utf8').digest('hex')}`;

/** The fields a caller writes; the rest of a stored skill is set by the service. */
export interface SkillFields {
  slug: string;
  name: string;
  description: string;
  domain: string;
  kind: SkillKind;
  target: { slug: string; target_content_hash: string } | null;
  source: SkillSource;
  content: string | null;
  summary: string;
  tags: string[];
  /** Any further keys the caller sent (kept as given). */
  extra: Record<string, unknown>;
}

type Loc = (string | number)[];

function issue(items: ValidationItem[], loc: Loc, msg: string, type: string, input: unknown, ctx: Record<string, unknown> = {}) {
  items.push({ loc, msg, type, input: input === undefined ? null : input, ctx });
}

function str(items: ValidationItem[], data: Record<string, unknown>, key: string, at: Loc, opts: { required: boolean; maxChars?: number }): string | null {
  const v = data[key];
  if (v === undefined || v === null) {
    if (opts.required) issue(items, [...at, key], 'Field required', 'missing', null);
    return null;
  }
  if (typeof v !== 'string') {
    issue(items, [...at, key], 'Input should be a valid string', 'string_type', v);
    return null;
  }
  const s = v.trim();
  if (opts.required && !s) {
    issue(items, [...at, key], 'String should have at least 1 character', 'string_too_short', v, { min_length: 1 });
    return null;
  }
  if (opts.maxChars !== undefined && s.length > opts.maxChars) {
    issue(items, [...at, key], `String should have at most ${opts.maxChars} characters`, 'string_too_long', null, { max_length: opts.maxChars });
    return null;
  }
  return s;
}

/**
 * Checks a skill write against spec 2.5 for the given role: every field problem is reported
 * together (422); a `source` the role may not claim, or a status other than `staged`, is a 403.
 */
export function checkSkillWrite(
  slug: string, data: Record<string, unknown>, role: SkillRole, limits: { descriptionMaxBytes: number }, at: Loc = ['body', 'data'],
): SkillFields {
  const items: ValidationItem[] = [];
  if (!SLUG_PATTERN.test(slug)) {
    issue(items, ['body', 'doc_id'], `String should match pattern '${SLUG_PATTERN.source}'`, 'string_pattern_mismatch', slug, { pattern: SLUG_PATTERN.source });
  }
  if (data.slug !== undefined && data.slug !== slug) {
    issue(items, [...at, 'slug'], 'The slug must equal the doc_id', 'value_error', data.slug ?? null, { doc_id: slug });
  }

  const source = data.source ?? DEFAULT_SOURCE[role];
  if (typeof source !== 'string' || !(SKILL_SOURCES as readonly string[]).includes(source)) {
    issue(items, [...at, 'source'], `Input should be one of: ${SKILL_SOURCES.join(', ')}`, 'enum', source, { expected: SKILL_SOURCES });
  } else if (!SOURCES_BY_ROLE[role].includes(source as SkillSource)) {
    throw forbidden(sourceRefusal(source as SkillSource), { source });
  }
  // Status is the service's to set; asking for a later state is an attempt to skip review.
  if (data.status !== undefined && data.status !== 'staged' && role !== 'worker' && role !== 'migration') {
    throw forbidden('A skill write lands "staged" for review; its status is changed through the skills inbox', { status: data.status });
  }

  const name = str(items, data, 'name', at, { required: true, maxChars: NAME_MAX_CHARS });
  const description = str(items, data, 'description', at, { required: true });
  if (description !== null && byteLength(description) > limits.descriptionMaxBytes) {
    issue(items, [...at, 'description'], `description should be at most ${limits.descriptionMaxBytes} bytes (got ${byteLength(description)})`,
      'too_long', null, { max_bytes: limits.descriptionMaxBytes });
  }
  const domain = str(items, data, 'domain', at, { required: true, maxChars: DOMAIN_MAX_CHARS });
  const kind = data.kind ?? 'create';
  if (typeof kind !== 'string' || !(SKILL_KINDS as readonly string[]).includes(kind)) {
    issue(items, [...at, 'kind'], `Input should be one of: ${SKILL_KINDS.join(', ')}`, 'enum', kind, { expected: SKILL_KINDS });
  }
  let target: SkillFields['target'] = null;
  if (kind === 'update') {
    const t = data.target;
    if (!isPlainObject(t)) {
      issue(items, [...at, 'target'], 'An update carries target.slug and target.target_content_hash', 'missing', t ?? null);
    } else {
      const ts = str(items, t, 'slug', [...at, 'target'], { required: true });
      const th = str(items, t, 'target_content_hash', [...at, 'target'], { required: true, maxChars: 200 });
      if (ts !== null && !SLUG_PATTERN.test(ts)) {
        issue(items, [...at, 'target', 'slug'], `String should match pattern '${SLUG_PATTERN.source}'`, 'string_pattern_mismatch', ts, { pattern: SLUG_PATTERN.source });
      } else if (ts === slug) {
        issue(items, [...at, 'target', 'slug'], 'An update targets another skill than itself', 'value_error', ts);
      }
      if (ts !== null && th !== null) target = { slug: ts, target_content_hash: th };
    }
  }
  // Content is required on every normal write; only the internal import path may omit it.
  const content = str(items, data, 'content', at, { required: role !== 'migration' });
  if (content !== null && byteLength(content) > CONTENT_MAX_BYTES) {
    issue(items, [...at, 'content'], `content should be at most ${CONTENT_MAX_BYTES} bytes (got ${byteLength(content)})`,
      'too_long', null, { max_bytes: CONTENT_MAX_BYTES });
  }
  const summary = str(items, data, 'summary', at, { required: false, maxChars: SUMMARY_MAX_CHARS });
  const tags: string[] = [];
  if (data.tags !== undefined && data.tags !== null) {
    if (!Array.isArray(data.tags) || data.tags.length > MAX_TAGS || data.tags.some((t) => typeof t !== 'string' || !t.trim() || t.length > 64)) {
      issue(items, [...at, 'tags'], `tags should be a list of at most ${MAX_TAGS} strings of 1 to 64 characters`, 'list_type', null);
    } else tags.push(...(data.tags as string[]).map((t) => t.trim()));
  }
  if (items.length) throw new ValidationError(items);

  const known = new Set(['slug', 'name', 'description', 'domain', 'kind', 'target', 'source', 'content', 'summary', 'tags', ...SERVER_KEYS]);
  const extra: Record<string, unknown> = Object.create(null); // caller keys: no prototype to reach
  for (const [k, v] of Object.entries(data)) if (!known.has(k)) extra[k] = v;
  return {
    slug, name: name!, description: description!, domain: domain!, kind: kind as SkillKind, target, source: source as SkillSource,
    content, summary: summary || description!, tags, extra,
  };
}

function sourceRefusal(source: SkillSource): string {
  switch (source) {
    case 'manual': return 'source "manual" is for admins (trust level 3); agents write source "agent"';
    case 'forge': return 'source "forge" is set only by the Forge worker';
    case 'imported': return 'source "imported" is set only by the import path';
    default: return `source "${source}" is not allowed for this caller`;
  }
}

/**
 * A skill's identity for the poison table when Forge did not give it one: its domain, the
 * sorted words of its name and the hash of its normalised content.
 */
export function writtenSkillFingerprint(f: Pick<SkillFields, 'name' | 'domain' | 'content'>): string {
  const words = [...new Set(f.name.toLowerCase().match(/[a-z0-9]+/g) ?? [])].sort().join(' ');
  const body = (f.content ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  const canonical = `domain=${f.domain.trim().toLowerCase()}\nname=${words}\ncontent=${createHash('sha256').update(body).digest('hex')}`;
  return `fp:w1:${createHash('sha256').update(canonical).digest('hex')}`;
}
