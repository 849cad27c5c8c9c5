// The skills catalog: skills as documents of the collection `skills` (spec 2.5). Writes are
// checked against the skill rules for the writer's role, stamped (content hash, fingerprint,
// scan) and land `staged`; agents read only `active` skills. Documents are written through a
// narrow port onto the document store, the only path into the protected collection.
import type { Db } from '../../store/db.js';
import type { DocumentRecord } from '../documents/service.js';
import { listSkills, readSkill, updateSkillData } from '../../store/skills.js';
import { type Caller, checkReadFleets, confinedFleet, isAdmin, requireTrust, resolveTenant, resolveWriteFleet, TRUST } from '../caller.js';
import { conflict, notFound } from '../errors.js';
import {
  checkSkillWrite, contentHash, SKILLS_COLLECTION, writtenSkillFingerprint, type SkillFields, type SkillRole, type SkillState,
} from './rules.js';
import { isClean, scanSkill } from './scan.js';
import type { OrgSettingsService } from './org-settings.js';

/** What the catalog needs of the document store: system writes and deletes in `skills`. */
export interface SkillDocumentPort {
  write(input: { tenant_id: string; fleet_id: string | null; doc_id: string; data: Record<string, unknown>; text_fields: string[] }):
    Promise<{ created: boolean; created_at: string; updated_at: string }>;
  /** 404 when there is none. */
  delete(key: { tenant_id: string; fleet_id: string | null; doc_id: string }): Promise<void>;
}

/** The field a skill is embedded and searched by. */
export const SKILL_TEXT_FIELDS = ['summary'];

/** A skill as the document surfaces return it. */
export type SkillRecord = DocumentRecord;

export interface CatalogDeps {
  db: Db;
  documents: SkillDocumentPort;
  settings: OrgSettingsService;
  clock?: () => Date;
}

export interface InstallableSkill {
  slug: string;
  name: string;
  description: string;
  domain: string;
  summary: string;
  content: string;
  content_hash: string;
  tags: string[];
  fleet_id: string | null;
  updated_at: string;
}

export const INSTALLABLE_MAX = 1000;


/** Agents see (and are delivered) only `active` skills: the rule as a predicate over a documents row. */
export const AGENT_READABLE_SQL = `data ->> 'status' = 'active'`;

export const roleOf = (caller: Caller): SkillRole => (isAdmin(caller) ? 'admin' : 'agent');

export class SkillCatalog {
  readonly clock: () => Date;

  constructor(private readonly deps: CatalogDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /**
   * A write into the collection `skills` by a caller (documents surface, MCP `loci_doc`). With
   * the factory on it lands `staged` for the inbox; with it off there is no review, so a clean
   * skill is `active` at once and an unclean one `quarantined` (never delivered).
   */
  async write(caller: Caller, input: { tenant_id?: string | null; fleet_id?: string | null; doc_id: string; data: Record<string, unknown> }): Promise<SkillRecord & { created: boolean }> {
    const tenant = resolveTenant(caller, input.tenant_id, 'write');
    requireTrust(caller, TRUST.standard, 'Writing skills');
    const role = roleOf(caller);
    const settings = await this.deps.settings.skillsFactory(tenant);
    const fields = checkSkillWrite(input.doc_id, input.data, role, { descriptionMaxBytes: settings.description_max_bytes });
    const fleet = resolveWriteFleet(caller, input.fleet_id) || null;
    const existing = await readSkill(this.deps.db, tenant, fields.slug);
    if (existing) {
      if ((existing.fleet_id ?? null) !== fleet) {
        throw conflict(`Skill "${fields.slug}" already exists in another fleet of this tenant; skill slugs are unique per tenant`, { slug: fields.slug });
      }
      const status = existing.data.status as string;
      const author = (existing.data.origin as { agent_id?: string } | undefined)?.agent_id ?? null;
      if (status !== 'staged' || (role !== 'admin' && author !== caller.agentId)) {
        throw conflict(`Skill "${fields.slug}" is ${status}${status === 'staged' ? ' and was written by another agent' : ''}; ` +
          'propose a change as a new skill of kind "update" targeting it', { slug: fields.slug, status });
      }
    }
    const now = this.clock();
    const scan = scanSkill({ ...fields, content: fields.content ?? '' }, now);
    const status: SkillState = settings.enabled ? 'staged' : isClean(scan) ? 'active' : 'quarantined';
    if (status === 'active' && fields.target) {
      // No review to check it later: an update goes live only over the version it was drafted on.
      const target = await readSkill(this.deps.db, tenant, fields.target.slug);
      if (!target || target.data.status !== 'active' || target.data.content_hash !== fields.target.target_content_hash) {
        throw conflict(`The skill "${fields.target.slug}" this update targets is not active at that content hash`, { code: 'SKILL_TARGET_CHANGED', slug: fields.slug });
      }
    }
    const data = this.stamp(fields, {
      status, scan, fingerprint: writtenSkillFingerprint(fields),
      origin: { agent_id: caller.agentId, written_at: now.toISOString() },
    });
    const rec = await this.put(tenant, fleet, fields.slug, data);
    if (status === 'active' && fields.kind === 'update') await this.deprecateTarget(tenant, fields, now);
    return rec;
  }

  /** Deletes a skill for good, whatever its state: admins only (others retire skills through the inbox). */
  async remove(caller: Caller, key: { tenant_id?: string | null; fleet_id?: string | null; doc_id: string }): Promise<void> {
    const tenant = resolveTenant(caller, key.tenant_id, 'write');
    requireTrust(caller, TRUST.admin, 'Deleting skills');
    const row = await readSkill(this.deps.db, tenant, key.doc_id);
    if (!row || (row.fleet_id ?? null) !== (key.fleet_id || null)) throw notFound('Skill');
    await this.deps.documents.delete({ tenant_id: tenant, fleet_id: row.fleet_id, doc_id: row.doc_id });
  }

  /** The stored form of a skill: the caller's fields, then what the service sets. */
  stamp(fields: SkillFields, set: { status: SkillState; scan: unknown; fingerprint: string; origin: Record<string, unknown> } & Record<string, unknown>): Record<string, unknown> {
    return {
      ...fields.extra,
      slug: fields.slug, name: fields.name, description: fields.description, domain: fields.domain, kind: fields.kind,
      target: fields.target, source: fields.source, content: fields.content, summary: fields.summary, tags: fields.tags,
      content_hash: contentHash(fields.content ?? ''), deferred_at: null,
      ...set,
    };
  }

  /** Writes a skill document as the system (the only way into the protected collection). */
  async put(tenant: string, fleet: string | null, slug: string, data: Record<string, unknown>): Promise<SkillRecord & { created: boolean }> {
    const r = await this.deps.documents.write({ tenant_id: tenant, fleet_id: fleet, doc_id: slug, data, text_fields: SKILL_TEXT_FIELDS });
    return { tenant_id: tenant, fleet_id: fleet, collection: SKILLS_COLLECTION, doc_id: slug, data, created_at: r.created_at, updated_at: r.updated_at, created: r.created };
  }

  /** An approved update replaces its target: the target is deprecated and points at its successor. */
  async deprecateTarget(tenant: string, update: Pick<SkillFields, 'slug' | 'target'>, now: Date): Promise<void> {
    if (!update.target) return;
    const target = await readSkill(this.deps.db, tenant, update.target.slug);
    if (!target || target.data.status !== 'active') return;
    await updateSkillData(this.deps.db, tenant, target.doc_id, target.version, {
      ...target.data, status: 'deprecated', superseded_by: update.slug,
      review: { action: 'superseded', by: null, at: now.toISOString(), reason: `replaced by ${update.slug}` },
    });
  }

  /** Active skills for harness delivery: the tenant-wide ones and, with a fleet, that fleet's. */
  async installable(caller: Caller, q: { tenant_id?: string | null; fleet_id?: string | null }) {
    const tenant = resolveTenant(caller, q.tenant_id, 'read');
    checkReadFleets(caller, [q.fleet_id]);
    // A fleet-confined key receives its fleet's skills and the tenant-wide ones.
    const fleet = q.fleet_id || confinedFleet(caller);
    const { rows, total } = await listSkills(this.deps.db, tenant, {
      status: 'active', fleetId: fleet, withTenantWide: true, limit: INSTALLABLE_MAX, order: 'slug',
    });
    const items: InstallableSkill[] = rows.map((r) => ({
      slug: r.doc_id, name: String(r.data.name ?? r.doc_id), description: String(r.data.description ?? ''),
      domain: String(r.data.domain ?? ''), summary: String(r.data.summary ?? ''), content: String(r.data.content ?? ''),
      content_hash: String(r.data.content_hash ?? contentHash(String(r.data.content ?? ''))),
      tags: Array.isArray(r.data.tags) ? r.data.tags.map(String) : [], fleet_id: r.fleet_id, updated_at: r.updated_at,
    }));
    return { tenant_id: tenant, fleet_id: fleet, count: items.length, truncated: total > items.length, items };
  }
}
