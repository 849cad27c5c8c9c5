// Skills (spec 4.4, 4.7): the inbox, the installable catalog, organisation settings and the
// Forge fan-out. Each route is one call into the skills services, which authorize.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { COOLOFF_DAYS, INBOX_LIMIT, SKILL_STATES } from '../core/skills/index.js';
import type { InboxAction } from '../core/skills/rules.js';
import { AnyObject, DateTime, Ident, Slug, TenantId, errorResponses } from './schemas.js';
import { StrEnum } from './memory-schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const TenantQuery = Type.Object({ tenant_id: Type.Optional(TenantId) });

const Card = Type.Object({
  slug: Type.String(), doc_id: Type.String(), fleet_id: Nullable(Type.String()),
  name: Nullable(Type.String()), description: Nullable(Type.String()), summary: Nullable(Type.String()),
  content: Nullable(Type.String({ description: 'Only with include_content=true' })),
  domain: Nullable(Type.String()), tags: Type.Array(Type.String()), source: Nullable(Type.String()), kind: Nullable(Type.String()),
  status: Nullable(Type.String()), fingerprint: Nullable(Type.String()),
  scan_state: Nullable(Type.String()), scan_critical: Type.Integer(), scan_warn: Type.Integer(),
  sentinel_scan: Type.Unknown({ description: '{status, critical_count, warning_count, findings[≤20]} or null' }),
  forge_evidence: Type.Unknown({ description: '{cluster_size, distinct_agents} on Forge skills, else null' }),
  origin: AnyObject, gates: Type.Array(AnyObject), evidence: Type.Unknown(), cites: Type.Array(Type.String()),
  content_hash: Nullable(Type.String()), target: Type.Unknown(), deferred_at: Nullable(Type.String()), review: Type.Unknown(),
  created_at: DateTime, updated_at: DateTime,
}, { $id: 'SkillCard' });

const InboxList = Type.Object({
  tenant_id: Type.String(), fleet_id: Nullable(Type.String()),
  count: Type.Integer({ description: 'Cards on this page' }),
  total: Type.Integer({ description: 'Skills in this state' }),
  truncated: Type.Boolean({ description: 'More exist than this page holds (limit, inbox_max_pending)' }),
  items: Type.Array(Type.Ref('SkillCard')),
});

const InboxQuery = Type.Object({
  tenant_id: Type.Optional(TenantId),
  fleet_id: Type.Optional(Ident),
  limit: Type.Integer({ minimum: INBOX_LIMIT.min, maximum: INBOX_LIMIT.max, default: INBOX_LIMIT.default }),
  include_content: Type.Boolean({ default: false }),
  status: Type.Optional(StrEnum(SKILL_STATES, { description: 'Default staged (the inbox); other states for review queues' })),
});

const ActionResult = Type.Object({
  slug: Type.String(), previous_status: Type.String(), new_status: Type.String(), detail: Nullable(Type.String()),
}, { $id: 'SkillActionResult' });

const Reason = Type.String({ minLength: 1, maxLength: 1000 });
const ActionBodies: Record<InboxAction, ReturnType<typeof Type.Object>> = {
  approve: Type.Object({}, { additionalProperties: false }),
  defer: Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false }),
  quarantine: Type.Object({ reason: Reason }, { additionalProperties: false }),
  reject: Type.Object({
    reason: Reason,
    cooloff_days: Type.Optional(Type.Integer({ minimum: COOLOFF_DAYS.min, maximum: COOLOFF_DAYS.max, description: 'Default: rejection_cooloff_days (30)' })),
  }, { additionalProperties: false }),
  edit: Type.Object({
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    summary: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    content: Type.Optional(Type.String({ minLength: 1, maxLength: 200_000 })),
    domain: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 })),
    reason: Type.Optional(Reason),
  }, { additionalProperties: true, minProperties: 1, description: 'Other keys are refused (422): an edit changes only these' }),
};

const ACTION_SUMMARIES: Record<InboxAction, string> = {
  approve: 'Approve a staged skill (staged → active); it is scanned again first',
  edit: 'Revise a staged skill; it is scanned again and stays staged',
  reject: 'Reject a staged or quarantined skill; its fingerprint cools off in the poison table',
  quarantine: 'Quarantine a staged skill for security review',
  defer: 'Defer a staged skill: it stays staged and moves to the bottom of the inbox',
};

const Installable = Type.Object({
  tenant_id: Type.String(), fleet_id: Nullable(Type.String()), count: Type.Integer(), truncated: Type.Boolean(),
  items: Type.Array(Type.Object({
    slug: Type.String(), name: Type.String(), description: Type.String(), domain: Type.String(), summary: Type.String(),
    content: Type.String(), content_hash: Type.String(), tags: Type.Array(Type.String()), fleet_id: Nullable(Type.String()),
    updated_at: DateTime,
  })),
});

const SkillsFactory = Type.Object({
  enabled: Type.Boolean(), description_max_bytes: Type.Integer(), inbox_max_pending: Type.Integer(), rejection_cooloff_days: Type.Integer(),
  forge: Type.Object({ cron_interval_hours: Type.Integer(), min_cluster_size: Type.Integer(), min_distinct_agents: Type.Integer(), freshness_window_days: Type.Integer() }),
  sentinel: Type.Object({ auto_promote_clean: Type.Boolean() }),
});
const OrgSettings = Type.Object({ tenant_id: Type.String(), skills_factory: SkillsFactory, updated_at: Nullable(DateTime) });

const ForgeReport = Type.Object({ ticked_at: DateTime, tenants: Type.Array(AnyObject) });

export const skillRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.addSchema(Card);
  app.addSchema(ActionResult);
  const tags = ['skills'];
  const sk = s.skills;

  app.get('/api/v1/skills-inbox', {
    schema: {
      tags, summary: 'List staged skills (the inbox)',
      description: 'Admins (trust 3) of a tenant with the skills factory enabled (else 403, code SKILLS_FACTORY_DISABLED). ' +
        'Newest first; deferred cards last. At most min(limit, inbox_max_pending) cards.',
      querystring: InboxQuery,
      response: { 200: InboxList, ...errorResponses() },
    },
  }, async (req) => sk.inbox.list(req.caller, req.query as Static<typeof InboxQuery>));

  for (const action of Object.keys(ActionBodies) as InboxAction[]) {
    app.post(`/api/v1/skills-inbox/:slug/${action}`, {
      schema: {
        tags, summary: ACTION_SUMMARIES[action],
        description: 'Admins only. From a state the action does not apply to → 409 (code SKILL_TRANSITION_NOT_ALLOWED).',
        params: Type.Object({ slug: Slug }),
        querystring: TenantQuery,
        ...(action === 'approve' || action === 'defer' ? {} : { body: ActionBodies[action] }),
        response: { 200: Type.Ref('SkillActionResult'), ...errorResponses(404, 409) },
      },
    }, async (req) => {
      const { slug } = req.params as { slug: string };
      const body = (req.body ?? {}) as Record<string, unknown>;
      return sk.inbox.act(req.caller, (req.query as Static<typeof TenantQuery>).tenant_id, slug, action, body);
    });
  }

  app.post('/api/v1/skills/installable', {
    config: { rate: 'other' },
    schema: {
      tags, summary: 'Active skills for delivery to agent harnesses',
      description: 'Only active skills, whatever the caller asks: what `loci skills sync` writes to disk.',
      body: Type.Optional(Type.Object({ tenant_id: Type.Optional(TenantId), fleet_id: Type.Optional(Ident) }, { additionalProperties: false })),
      response: { 200: Installable, ...errorResponses() },
    },
  }, async (req) => sk.catalog.installable(req.caller, (req.body ?? {}) as { tenant_id?: string; fleet_id?: string }));

  app.get('/api/v1/org/settings', {
    schema: {
      tags: ['settings'], summary: 'Organisation settings (skills_factory) with their defaults',
      description: 'Trust 3.', querystring: TenantQuery, response: { 200: OrgSettings, ...errorResponses() },
    },
  }, async (req) => sk.settings.get(req.caller, (req.query as Static<typeof TenantQuery>).tenant_id));

  app.patch('/api/v1/org/settings', {
    schema: {
      tags: ['settings'], summary: 'Change organisation settings (deep merge)',
      description: 'Trust 3. Body `{skills_factory: {...}}`; nested objects merge key by key, so `{skills_factory: {forge: ' +
        '{min_cluster_size: 5}}}` changes that key only. Unknown keys and out-of-range values → 422.',
      querystring: TenantQuery,
      // Unknown keys reach the service, which refuses them (422) instead of dropping a misspelt one.
      body: Type.Object({ skills_factory: Type.Optional(AnyObject) }, { additionalProperties: true }),
      response: { 200: OrgSettings, ...errorResponses() },
    },
  }, async (req) => sk.settings.patch(req.caller, (req.query as Static<typeof TenantQuery>).tenant_id, req.body));

  // The spec names the fan-out without the /api/v1 prefix; both paths are served.
  for (const path of ['/api/v1/admin/lifecycle/fanout/forge-distill', '/admin/lifecycle/fanout/forge-distill']) {
    app.post(path, {
      schema: {
        tags: ['admin'], summary: 'Run one Forge tick for every tenant with the skills factory enabled',
        description: 'Trust 3. Reports per tenant what the tick did. Meant for an external scheduler (every forge.cron_interval_hours).',
        response: { 200: ForgeReport, ...errorResponses() },
      },
    }, async (req) => sk.forge.fanout(req.caller));
  }
};
