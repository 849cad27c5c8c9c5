// Organisation settings per tenant (`GET|PATCH /api/v1/org/settings`, trust 3). Only
// `skills_factory` exists today; what is stored is the caller's overrides, read back merged
// over the defaults.
import type { Db } from '../../store/db.js';
import { readOrgSettings, writeOrgSettings, factoryTenants } from '../../store/skills.js';
import { type Caller, requireTrust, resolveTenant, TRUST } from '../caller.js';
import { ValidationError } from '../errors.js';
import { isPlainObject } from '../documents/rules.js';
import { checkSkillsFactoryPatch, deepMerge, effectiveSkillsFactory, factoryDisabled, type SkillsFactorySettings } from './settings.js';

export interface OrgSettingsView {
  tenant_id: string;
  skills_factory: SkillsFactorySettings;
  updated_at: string | null;
}

export class OrgSettingsService {
  constructor(private readonly db: Db) {}

  async get(caller: Caller, tenantId?: string | null): Promise<OrgSettingsView> {
    const tenant = resolveTenant(caller, tenantId, 'read');
    requireTrust(caller, TRUST.admin, 'Reading organisation settings');
    const stored = await readOrgSettings(this.db, tenant);
    return { tenant_id: tenant, skills_factory: effectiveSkillsFactory(stored?.settings.skills_factory), updated_at: stored?.updated_at ?? null };
  }

  /** Deep-merges `patch` into the stored settings; unknown keys and bad values are a 422 and change nothing. */
  async patch(caller: Caller, tenantId: string | null | undefined, patch: unknown): Promise<OrgSettingsView> {
    const tenant = resolveTenant(caller, tenantId, 'write');
    requireTrust(caller, TRUST.admin, 'Changing organisation settings');
    if (!isPlainObject(patch)) throw new ValidationError([{ loc: ['body'], msg: 'Input should be a valid object', type: 'dict_type', input: null, ctx: {} }]);
    for (const k of Object.keys(patch)) {
      if (k !== 'skills_factory') {
        throw new ValidationError([{ loc: ['body', k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: null, ctx: {} }]);
      }
    }
    if (patch.skills_factory !== undefined) checkSkillsFactoryPatch(patch.skills_factory);
    const updated = await this.db.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`org_settings:${tenant}`]);
      const stored = await readOrgSettings(q, tenant);
      const merged = deepMerge(stored?.settings ?? {}, patch as Record<string, unknown>);
      const at = await writeOrgSettings(q, tenant, merged);
      return { merged, at };
    });
    return { tenant_id: tenant, skills_factory: effectiveSkillsFactory(updated.merged.skills_factory), updated_at: updated.at };
  }

  /** The tenant's effective skills settings (internal: no caller). */
  async skillsFactory(tenant: string): Promise<SkillsFactorySettings> {
    const stored = await readOrgSettings(this.db, tenant);
    return effectiveSkillsFactory(stored?.settings.skills_factory);
  }

  /** The settings of a tenant that has opted in; 403 SKILLS_FACTORY_DISABLED otherwise. */
  async requireFactory(tenant: string): Promise<SkillsFactorySettings> {
    const s = await this.skillsFactory(tenant);
    if (!s.enabled) throw factoryDisabled(tenant);
    return s;
  }

  enabledTenants(): Promise<string[]> {
    return factoryTenants(this.db);
  }
}
