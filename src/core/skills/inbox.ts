// The skills inbox (spec 3.2, 4.7): admins review staged skills — approve, edit, reject (the
// fingerprint goes into the poison table for a cool-off), quarantine, defer. Every action is a
// guarded status change: from a state the action does not start from it is a 409, and so is
// a skill changed by someone else while the action ran.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../store/db.js';
import { insertRejection, listSkills, readSkill, updateSkillData } from '../../store/skills.js';
import type { AuditLog } from '../audit.js';
import { type Caller, requireTrust, resolveTenant, TRUST } from '../caller.js';
import { conflict, notFound, ValidationError } from '../errors.js';
import { isPlainObject } from '../documents/rules.js';
import type { SkillCatalog } from './catalog.js';
import type { OrgSettingsService } from './org-settings.js';
import { canAct, checkSkillWrite, contentHash, INBOX_ACTIONS, SKILL_STATES, type InboxAction, type SkillRole, type SkillState } from './rules.js';
import { isClean, scanSkill, type ScanResult } from './scan.js';

export const INBOX_LIMIT = { min: 1, max: 200, default: 50 } as const;
export const COOLOFF_DAYS = { min: 1, max: 365 } as const;
export const REASON_MAX_CHARS = 1000;
/** Findings shown on a card (the full list stays on the skill). */
const CARD_FINDINGS = 20;

export interface InboxListQuery {
  tenant_id?: string | null;
  fleet_id?: string | null;
  limit?: number;
  include_content?: boolean;
  /** Which state to list; default staged (the inbox proper). */
  status?: SkillState;
}

export interface ActionResult {
  slug: string;
  previous_status: string;
  new_status: string;
  detail: string | null;
}

export interface InboxDeps {
  db: Db;
  catalog: SkillCatalog;
  settings: OrgSettingsService;
  audit?: AuditLog;
}

export const SKILL_ACTION_AUDIT = 'skill_inbox_action';

function card(r: { doc_id: string; fleet_id: string | null; data: Record<string, any>; created_at: string; updated_at: string }, withContent: boolean) {
  const d = r.data;
  const scan = (isPlainObject(d.scan) ? d.scan : null) as ScanResult | null;
  const origin = isPlainObject(d.origin) ? d.origin : {};
  return {
    slug: r.doc_id,
    doc_id: r.doc_id,
    fleet_id: r.fleet_id,
    name: d.name ?? null,
    description: d.description ?? null,
    summary: d.summary ?? null,
    content: withContent ? d.content ?? null : null,
    domain: d.domain ?? null,
    tags: Array.isArray(d.tags) ? d.tags : [],
    source: d.source ?? null,
    kind: d.kind ?? null,
    status: d.status ?? null,
    fingerprint: d.fingerprint ?? null,
    scan_state: scan?.state ?? null,
    scan_critical: scan?.critical ?? 0,
    scan_warn: 0,
    sentinel_scan: scan ? { status: scan.state, critical_count: scan.critical, warning_count: 0, findings: (scan.findings ?? []).slice(0, CARD_FINDINGS) } : null,
    forge_evidence: d.source === 'forge' ? { cluster_size: origin.cluster_size ?? null, distinct_agents: origin.distinct_agents ?? null } : null,
    origin,
    gates: Array.isArray(d.gates) ? d.gates : [],
    evidence: d.evidence ?? {},
    cites: Array.isArray(d.cites) ? d.cites : [],
    content_hash: d.content_hash ?? null,
    target: d.target ?? null,
    deferred_at: d.deferred_at ?? null,
    review: d.review ?? null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

function reasonOf(body: Record<string, unknown>, required: boolean): string | null {
  const r = body.reason;
  if (r === undefined || r === null) {
    if (required) throw new ValidationError([{ loc: ['body', 'reason'], msg: 'Field required', type: 'missing', input: null, ctx: {} }]);
    return null;
  }
  if (typeof r !== 'string' || !r.trim()) {
    throw new ValidationError([{ loc: ['body', 'reason'], msg: 'String should have at least 1 character', type: 'string_too_short', input: r, ctx: { min_length: 1 } }]);
  }
  if (r.length > REASON_MAX_CHARS) {
    throw new ValidationError([{ loc: ['body', 'reason'], msg: `String should have at most ${REASON_MAX_CHARS} characters`, type: 'string_too_long', input: null, ctx: { max_length: REASON_MAX_CHARS } }]);
  }
  return r.trim();
}

const roleForSource = (source: unknown): SkillRole => (source === 'forge' ? 'worker' : source === 'imported' ? 'migration' : 'admin');

export class SkillsInbox {
  constructor(private readonly deps: InboxDeps) {}

  /** Admins only, tenants that opted in only (403 SKILLS_FACTORY_DISABLED otherwise). */
  private async admit(caller: Caller, tenantId: string | null | undefined, what: string) {
    const tenant = resolveTenant(caller, tenantId, 'write');
    requireTrust(caller, TRUST.admin, what);
    const settings = await this.deps.settings.requireFactory(tenant);
    return { tenant, settings };
  }

  async list(caller: Caller, q: InboxListQuery) {
    const { tenant, settings } = await this.admit(caller, q.tenant_id, 'The skills inbox');
    const status = q.status ?? 'staged';
    if (!(SKILL_STATES as readonly string[]).includes(status)) {
      throw new ValidationError([{ loc: ['query', 'status'], msg: `Input should be one of: ${SKILL_STATES.join(', ')}`, type: 'enum', input: status, ctx: { expected: SKILL_STATES } }]);
    }
    const limit = Math.min(q.limit ?? INBOX_LIMIT.default, INBOX_LIMIT.max, settings.inbox_max_pending);
    const { rows, total } = await listSkills(this.deps.db, tenant, { status, fleetId: q.fleet_id || null, limit, order: 'inbox' });
    return {
      tenant_id: tenant, fleet_id: q.fleet_id || null, count: rows.length, total, truncated: total > rows.length,
      items: rows.map((r) => card(r, q.include_content === true)),
    };
  }

  async act(caller: Caller, tenantId: string | null | undefined, slug: string, action: InboxAction, body: unknown = {}): Promise<ActionResult> {
    const { tenant, settings } = await this.admit(caller, tenantId, 'Reviewing skills');
    const input = isPlainObject(body) ? body : {};
    // Body checks come before the state check: a malformed request is a 422 whatever the skill's state.
    const reason = reasonOf(input, action === 'reject' || action === 'quarantine');
    const cooloff = action === 'reject' ? this.cooloffOf(input, settings.rejection_cooloff_days) : 0;

    const row = await readSkill(this.deps.db, tenant, slug);
    if (!row) throw notFound('Skill');
    const previous = String(row.data.status ?? '');
    if (!canAct(action, previous)) {
      throw conflict(`Cannot ${action} a skill that is ${previous || 'without a status'}; ${action} applies to ${INBOX_ACTIONS[action].join(' or ')} skills`,
        { code: 'SKILL_TRANSITION_NOT_ALLOWED', slug, status: previous, action });
    }
    const now = this.deps.catalog.clock();
    const by = caller.agentId ?? caller.keyId ?? null;
    const review = { action, by, at: now.toISOString(), reason };
    let next: Record<string, unknown>;
    let detail: string | null = null;

    switch (action) {
      case 'approve': {
        // The exact content being activated is scanned again.
        const scan = scanSkill(row.data, now);
        if (!isClean(scan)) {
          throw conflict(`Skill "${slug}" does not scan clean (${scan.critical} finding(s)); edit it or reject it`,
            { code: 'SKILL_SCAN_NOT_CLEAN', slug, findings: scan.findings.slice(0, CARD_FINDINGS) });
        }
        const target = row.data.kind === 'update' ? row.data.target as { slug?: string; target_content_hash?: string } | null : null;
        if (row.data.kind === 'update') {
          const current = target?.slug ? await readSkill(this.deps.db, tenant, target.slug) : null;
          if (!current || current.data.content_hash !== target?.target_content_hash) {
            throw conflict(`The skill "${target?.slug ?? '?'}" this update targets ${current ? 'has changed' : 'no longer exists'} since it was drafted`,
              { code: 'SKILL_TARGET_CHANGED', slug });
          }
        }
        next = { ...row.data, status: 'active', scan, deferred_at: null, review };
        break;
      }
      case 'edit':
        return this.edit(caller, tenant, row, input, settings.description_max_bytes, review);
      case 'reject':
        next = { ...row.data, status: 'rejected', review: { ...review, cooloff_days: cooloff, cooloff_until: new Date(now.getTime() + cooloff * 86_400_000).toISOString() } };
        detail = `fingerprint cooling off for ${cooloff} day(s)`;
        break;
      case 'quarantine':
        next = { ...row.data, status: 'quarantined', review };
        break;
      case 'defer':
        next = { ...row.data, deferred_at: now.toISOString(), review };
        detail = 'moved to the bottom of the inbox';
        break;
    }

    await this.deps.db.tx(async (q) => {
      const done = await updateSkillData(q, tenant, slug, row.version, next);
      if (!done) throw conflict(`Skill "${slug}" was changed while this ${action} ran; reload and retry`, { code: 'SKILL_CHANGED', slug });
      if (action === 'reject') {
        await insertRejection(q, randomUUID(), {
          tenant_id: tenant, fingerprint: String(row.data.fingerprint ?? contentHash(String(row.data.content ?? ''))), slug,
          reason: reason!, rejected_by: by, rejected_at: now, cooloff_days: cooloff,
        });
      }
    });
    if (action === 'approve') await this.deps.catalog.deprecateTarget(tenant, { slug, target: row.data.kind === 'update' ? row.data.target as any : null }, now);
    const result = { slug, previous_status: previous, new_status: String(next.status), detail };
    await this.deps.audit?.record(tenant, SKILL_ACTION_AUDIT, caller, { ...result, action, reason });
    return result;
  }

  private cooloffOf(body: Record<string, unknown>, dflt: number): number {
    const v = body.cooloff_days;
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < COOLOFF_DAYS.min || v > COOLOFF_DAYS.max) {
      throw new ValidationError([{ loc: ['body', 'cooloff_days'], msg: `Input should be an integer from ${COOLOFF_DAYS.min} to ${COOLOFF_DAYS.max}`, type: 'int_range', input: v ?? null, ctx: { ge: COOLOFF_DAYS.min, le: COOLOFF_DAYS.max } }]);
    }
    return v;
  }

  /** Revises a staged skill and scans it again; it stays staged (an unclean revision cannot be approved). */
  private async edit(caller: Caller, tenant: string, row: NonNullable<Awaited<ReturnType<typeof readSkill>>>, body: Record<string, unknown>,
    descriptionMaxBytes: number, review: Record<string, unknown>): Promise<ActionResult> {
    const editable = ['name', 'description', 'summary', 'content', 'domain', 'tags'];
    const unknown = Object.keys(body).filter((k) => !editable.includes(k) && k !== 'reason');
    if (unknown.length) {
      throw new ValidationError(unknown.map((k) => ({ loc: ['body', k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: null, ctx: {} })));
    }
    if (!editable.some((k) => body[k] !== undefined)) {
      throw new ValidationError([{ loc: ['body'], msg: `An edit changes at least one of: ${editable.join(', ')}`, type: 'missing', input: null, ctx: {} }]);
    }
    const revised: Record<string, unknown> = { ...row.data };
    for (const k of editable) if (body[k] !== undefined) revised[k] = body[k];
    // An edited summary is what the skill is found by; without one, the old summary stays.
    const fields = checkSkillWrite(row.doc_id, revised, roleForSource(row.data.source), { descriptionMaxBytes }, ['body']);
    const now = this.deps.catalog.clock();
    const scan = scanSkill({ ...fields, content: fields.content ?? '' }, now);
    // The skill's identity and provenance stay; its text, hash and scan are new.
    const d = row.data;
    const data = this.deps.catalog.stamp(fields, {
      status: 'staged', scan, fingerprint: String(d.fingerprint), origin: d.origin as Record<string, unknown>,
      ...(d.gates !== undefined ? { gates: d.gates } : {}), ...(d.cites !== undefined ? { cites: d.cites } : {}),
      ...(d.evidence !== undefined ? { evidence: d.evidence } : {}), review: { ...review, action: 'edit' },
    });
    // Guard against a concurrent action, then write through the document store (re-indexes the summary).
    const current = await readSkill(this.deps.db, tenant, row.doc_id);
    if (!current || current.version !== row.version) throw conflict(`Skill "${row.doc_id}" was changed while this edit ran; reload and retry`, { code: 'SKILL_CHANGED', slug: row.doc_id });
    await this.deps.catalog.put(tenant, row.fleet_id, row.doc_id, data);
    const result = { slug: row.doc_id, previous_status: 'staged', new_status: 'staged', detail: isClean(scan) ? 'revised; scan clean' : `revised; scan found ${scan.critical} issue(s)` };
    await this.deps.audit?.record(tenant, SKILL_ACTION_AUDIT, caller, { ...result, action: 'edit' });
    return result;
  }
}
