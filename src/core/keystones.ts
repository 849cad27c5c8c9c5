// Keystones (spec 2.4, 4.6; DEFAULTS "Keystones"): mandatory policy rules delivered to agents at
// session start. The list is open (spec 5); changes are gated by trust from the rule's scope:
// an agent may author its own agent-scope rules at trust 1, everything else needs trust 2, and a
// change of an existing rule must also pass the gate of the rule as stored.
import { randomUUID } from 'node:crypto';
import type { Db } from '../store/db.js';
import { deleteKeystone, lockKeystone, selectKeystones, upsertKeystone, type KeystoneRow } from '../store/keystones.js';
import type { AuditLog } from './audit.js';
import { type Caller, requireAuth, requireTrust, resolveAgent, resolveTenant, TRUST } from './caller.js';
import { forbidden, invalid, notFound, unauthorized, ValidationError, type ValidationItem } from './errors.js';

export const KEYSTONE_SCOPES = ['tenant', 'fleet', 'agent'] as const;
export type KeystoneScope = (typeof KEYSTONE_SCOPES)[number];
export const KEYSTONE_WEIGHTS = { low: 25, med: 50, high: 100 } as const;
export type KeystoneWeight = keyof typeof KEYSTONE_WEIGHTS;
/** Rules in one merged list at most; more set X-Truncated. */
export const KEYSTONE_LIST_MAX = 50;
export const KEYSTONE_TITLE_MAX = 200;
/** Every rule is read into every session: a rule is a sentence or a paragraph, not a document. */
export const KEYSTONE_CONTENT_MAX = 4_000;
export const KEYSTONE_SET = 'keystone.set';
export const KEYSTONE_DELETE = 'keystone.delete';

const labelOf = (w: number): KeystoneWeight => (w >= 100 ? 'high' : w >= 50 ? 'med' : 'low');
const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

export interface Keystone {
  id: string;
  tenant_id: string;
  doc_id: string;
  title: string;
  content: string;
  scope: KeystoneScope;
  /** 25, 50 or 100 (low, med, high). */
  weight: number;
  weight_label: KeystoneWeight;
  fleet_id: string | null;
  /** The agent an agent-scope rule binds (null for other scopes). */
  agent_id: string | null;
  author_user_id: string | null;
  created_at: string;
  updated_at: string;
  /** The rule as Caura's clients read it (a document's `data`). */
  data: { title: string; content: string; weight: number; scope: KeystoneScope; agent_id?: string };
}

function toKeystone(r: KeystoneRow): Keystone {
  const weight = Number(r.weight);
  return {
    id: r.id, tenant_id: r.tenant_id, doc_id: r.doc_id, title: r.title, content: r.content, scope: r.scope,
    weight, weight_label: labelOf(weight), fleet_id: r.fleet_id ?? null, agent_id: r.agent_id ?? null,
    author_user_id: r.author_user_id ?? null, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
    data: { title: r.title, content: r.content, weight, scope: r.scope, ...(r.agent_id ? { agent_id: r.agent_id } : {}) },
  };
}

export interface KeystoneListQuery {
  tenant_id?: string;
  fleet_id?: string;
  agent_id?: string;
}

export interface KeystoneList {
  /** Heaviest first, at most KEYSTONE_LIST_MAX. */
  rules: Keystone[];
  truncated: boolean;
}

export interface KeystoneInput {
  tenant_id?: string;
  doc_id: string;
  title: string;
  content: string;
  scope: KeystoneScope;
  weight: KeystoneWeight;
  fleet_id?: string | null;
  /** The agent the rule binds (scope agent only): not the caller. */
  agent_id?: string | null;
  author_user_id?: string | null;
}

/** The agent a change acts as: `X-Agent-ID` may only repeat the key's own agent. */
export interface ActingAs {
  agentHeader?: string;
}

/**
 * Trust a change of a rule of this shape needs: 1 when it binds the caller's own agent, else 2.
 * The caller's agent must be one its key vouches for (bound agent, or the gateway's header).
 */
export function keystoneTrustFloor(scope: string, targetAgent: string | null | undefined, caller: Caller): number {
  return scope === 'agent' && !!caller.agentId && targetAgent === caller.agentId ? TRUST.standard : TRUST.crossFleet;
}

/** Scope-shape rules: which of fleet_id and agent_id a scope takes (422 naming the field). */
function checkShape(input: KeystoneInput): void {
  const items: ValidationItem[] = [];
  const has = (v: unknown) => v !== undefined && v !== null && v !== '';
  const item = (field: string, msg: string, value: unknown) =>
    items.push({ loc: ['body', field], msg, type: 'value_error', input: value ?? null, ctx: { scope: input.scope } });
  if (input.scope === 'tenant' && has(input.fleet_id)) item('fleet_id', 'scope=tenant rules apply tenant-wide: omit fleet_id', input.fleet_id);
  if (input.scope === 'fleet' && !has(input.fleet_id)) item('fleet_id', 'scope=fleet needs fleet_id', input.fleet_id);
  if (input.scope === 'agent' && !has(input.agent_id)) item('agent_id', 'scope=agent needs agent_id (the agent the rule binds)', input.agent_id);
  if (input.scope !== 'agent' && has(input.agent_id)) {
    item('agent_id', `scope=${input.scope} rules are not agent-specific: agent_id is only for scope=agent`, input.agent_id);
  }
  if (!input.title?.trim()) item('title', 'String should have at least 1 character', input.title);
  if (!input.content?.trim()) item('content', 'String should have at least 1 character', input.content);
  if (items.length) throw new ValidationError(items);
}

export interface KeystoneDeps {
  db: Db;
  audit: AuditLog;
}

export class KeystoneService {
  constructor(private readonly deps: KeystoneDeps) {}

  /**
   * The merged rules of a tenant for a fleet and an agent. Open (spec 5): no key or trust is
   * needed, but only a tenant the caller may read is listed — without a key, the standalone
   * tenant. An agent-bound key lists its own agent's rules and may not name another agent.
   */
  async list(caller: Caller, q: KeystoneListQuery): Promise<KeystoneList> {
    const tenantId = this.readableTenant(caller, q.tenant_id);
    const agentId = resolveAgent(caller, q.agent_id);
    const rows = await selectKeystones(this.deps.db, { tenantId, fleetId: q.fleet_id ?? null, agentId }, KEYSTONE_LIST_MAX);
    return { rules: rows.slice(0, KEYSTONE_LIST_MAX).map(toKeystone), truncated: rows.length > KEYSTONE_LIST_MAX };
  }

  private readableTenant(caller: Caller, requested: string | undefined): string {
    if (caller.authenticated) return resolveTenant(caller, requested, 'read');
    if (caller.source === 'standalone' && caller.tenantId) {
      if (requested === undefined || requested === caller.tenantId) return caller.tenantId;
      throw forbidden(`Without a key only the rules of tenant "${caller.tenantId}" can be listed`);
    }
    throw unauthorized();
  }

  async upsert(caller: Caller, input: KeystoneInput, as: ActingAs = {}): Promise<Keystone & { created: boolean }> {
    const tenantId = this.writer(caller, input.tenant_id, as);
    checkShape(input);
    const weight = KEYSTONE_WEIGHTS[input.weight];
    if (weight === undefined) throw invalid(['body', 'weight'], 'Input should be one of: low, med, high', 'enum', input.weight, { expected: Object.keys(KEYSTONE_WEIGHTS) });
    const row = await this.deps.db.tx(async (q) => {
      // The stored rule is read (and locked) first: overwriting it needs its gate too, so a
      // trust-1 agent cannot turn a tenant rule into its own agent rule.
      const stored = await lockKeystone(q, tenantId, input.doc_id);
      const floor = Math.max(
        keystoneTrustFloor(input.scope, input.agent_id, caller),
        stored ? keystoneTrustFloor(stored.scope, stored.agent_id, caller) : 0);
      requireTrust(caller, floor, stored ? `Changing keystone "${input.doc_id}"` : `Writing a ${input.scope}-scope keystone`);
      return upsertKeystone(q, randomUUID(), {
        tenant_id: tenantId, doc_id: input.doc_id, scope: input.scope,
        fleet_id: input.fleet_id || null, agent_id: input.scope === 'agent' ? input.agent_id! : null,
        title: input.title.trim(), content: input.content.trim(), weight, author_user_id: input.author_user_id ?? null,
      });
    });
    const keystone = toKeystone(row);
    await this.deps.audit.record(tenantId, KEYSTONE_SET, caller, {
      doc_id: keystone.doc_id, scope: keystone.scope, fleet_id: keystone.fleet_id, agent_id: keystone.agent_id,
      weight: keystone.weight, created: row.created === true,
    });
    return { ...keystone, created: row.created === true };
  }

  async delete(caller: Caller, docId: string, q: { tenant_id?: string }, as: ActingAs = {}): Promise<{ deleted: true; doc_id: string }> {
    const tenantId = this.writer(caller, q.tenant_id, as);
    const stored = await this.deps.db.tx(async (tq) => {
      // Gated by the rule as stored, not by anything the caller says about it.
      const row = await lockKeystone(tq, tenantId, docId);
      if (!row) throw notFound('Keystone');
      requireTrust(caller, keystoneTrustFloor(row.scope, row.agent_id, caller), `Deleting keystone "${docId}"`);
      await deleteKeystone(tq, tenantId, docId);
      return row;
    });
    await this.deps.audit.record(tenantId, KEYSTONE_DELETE, caller, {
      doc_id: docId, scope: stored.scope, fleet_id: stored.fleet_id, agent_id: stored.agent_id,
    });
    return { deleted: true, doc_id: docId };
  }

  /**
   * Tenant of a change. Changing needs trust 1 at least (before anything is read, so a read-only
   * key cannot probe which rules exist); an `X-Agent-ID` naming another agent than the key's is refused.
   */
  private writer(caller: Caller, tenant: string | undefined, as: ActingAs): string {
    requireAuth(caller);
    if (as.agentHeader !== undefined && caller.agentId && as.agentHeader !== caller.agentId) {
      throw forbidden(`X-Agent-ID "${as.agentHeader}" does not match the agent this key is bound to`);
    }
    requireTrust(caller, TRUST.standard, 'Changing keystones');
    return resolveTenant(caller, tenant, 'write');
  }
}

/**
 * Most characters of rules the instructions carry (about 1,500 tokens, the cap Caura's plugin puts
 * on the keystones it injects): every session pays for them. The heaviest rules go in whole until
 * the next would pass it; one rule alone (≤ 4,200 characters) always fits.
 */
export const KEYSTONE_INSTRUCTIONS_MAX_CHARS = 6_000;

/**
 * Keystones as server instructions (MCP `initialize`): heaviest first, one line each, so a
 * harness that shows instructions delivers the policy before the first turn.
 */
export function keystoneInstructions(list: KeystoneList, maxChars = KEYSTONE_INSTRUCTIONS_MAX_CHARS): string {
  if (!list.rules.length) return '';
  const line = (s: string) => s.replace(/\s+/g, ' ').trim();
  const lines: string[] = [];
  let used = 0;
  for (const k of list.rules) {
    const l = `- [${k.weight_label}] ${line(k.title)}: ${line(k.content)}`;
    if (lines.length && used + l.length + 1 > maxChars) break;
    lines.push(l);
    used += l.length + 1;
  }
  const left = list.rules.length - lines.length;
  const more = left > 0 ? `${left}${list.truncated ? '+' : ''} lighter rule${left === 1 && !list.truncated ? '' : 's'} not shown`
    : list.truncated ? `more than ${KEYSTONE_LIST_MAX} rules apply` : '';
  return [
    'Keystones: MANDATORY rules for this agent. Obey them; they override conflicting instructions.',
    ...lines,
    ...(more ? [`(${more}: call loci_keystones)`] : []),
  ].join('\n');
}
