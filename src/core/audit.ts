// The audit trail: events about a tenant's data that its owners may want to review, stored per
// tenant and published on the bus: `cross_tenant_read`, a read of the tenant's
// data by a key of another tenant that was granted it (api_keys.readable_tenants); and
// `keystone.set` / `keystone.delete`, a change of the tenant's mandatory rules.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../store/db.js';
import type { EventBus } from '../infra/bus/types.js';
import { type Caller, isAdmin, requireTrust, TRUST } from './caller.js';
import { decodeCursor, encodeCursor } from './memories/cursor.js';
import { iso } from './memories/record.js';
import { Params } from './memories/params.js';

export const CROSS_TENANT_READ = 'cross_tenant_read';
/** Bus type of an audit event: `audit.<type>`. */
export const auditBusType = (type: string) => `audit.${type}`;

export interface AuditEvent {
  id: string;
  /** The tenant whose data the event is about (for a cross-tenant read: the tenant read from). */
  tenant_id: string;
  type: string;
  actor_tenant_id: string | null;
  actor_agent_id: string | null;
  actor_key_id: string | null;
  detail: Record<string, unknown>;
  created_at: string;
}

export interface AuditListQuery {
  tenant_id?: string;
  type?: string;
  limit?: number;
  cursor?: string;
}

export const AUDIT_LIST_LIMIT = { min: 1, max: 500, default: 50 } as const;

const COLUMNS = `id, tenant_id, type, actor_tenant_id, actor_agent_id, actor_key_id, detail, created_at`;

function toEvent(r: Record<string, any>): AuditEvent {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    type: r.type,
    actor_tenant_id: r.actor_tenant_id ?? null,
    actor_agent_id: r.actor_agent_id ?? null,
    actor_key_id: r.actor_key_id ?? null,
    detail: typeof r.detail === 'string' ? JSON.parse(r.detail) : (r.detail ?? {}),
    created_at: iso(r.created_at)!,
  };
}

export interface AuditDeps {
  db: Db;
  bus: EventBus;
  log?: Pick<Logger, 'warn'>;
}

export class AuditLog {
  constructor(private readonly deps: AuditDeps) {}

  /** Stores an event (the caller waits: an access that cannot be audited does not happen) and publishes it. */
  async record(tenantId: string, type: string, actor: Caller, detail: Record<string, unknown>): Promise<AuditEvent> {
    const { rows } = await this.deps.db.query(
      `INSERT INTO audit_events (id, tenant_id, type, actor_tenant_id, actor_agent_id, actor_key_id, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING ${COLUMNS}`,
      [randomUUID(), tenantId, type, actor.tenantId, actor.agentId, actor.keyId ?? null, JSON.stringify(detail)]);
    const event = toEvent(rows[0]);
    this.deps.bus
      .publish({ id: event.id, type: auditBusType(type), version: 1, tenant_id: tenantId, occurred_at: event.created_at, data: event })
      .catch((err) => this.deps.log?.warn({ err }, 'publishing an audit event failed'));
    return event;
  }

  /**
   * Records a read of `tenantId` when the caller reached it through its readable tenants. Admin
   * reads (trust 3) are operator access, not a grant, and are not recorded as cross-tenant reads.
   */
  async crossTenantRead(caller: Caller, tenantId: string, resource: string, params: Record<string, unknown>): Promise<void> {
    if (tenantId === caller.tenantId || isAdmin(caller)) return;
    const query = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null));
    await this.record(tenantId, CROSS_TENANT_READ, caller, { resource, query });
  }

  /** Admin listing, newest first, with a keyset cursor. */
  async list(caller: Caller, q: AuditListQuery): Promise<{ items: AuditEvent[]; next_cursor: string | null }> {
    requireTrust(caller, TRUST.admin, 'Listing audit events');
    const limit = q.limit ?? AUDIT_LIST_LIMIT.default;
    const p = new Params();
    const w: string[] = [];
    if (q.tenant_id !== undefined) w.push(`tenant_id = ${p.add(q.tenant_id)}`);
    if (q.type !== undefined) w.push(`type = ${p.add(q.type)}`);
    if (q.cursor !== undefined) {
      const c = decodeCursor(q.cursor);
      w.push(`(created_at, id) < (${p.add(c.createdAt, 'timestamptz')}, ${p.add(c.id, 'uuid')})`);
    }
    const { rows } = await this.deps.db.query(
      `SELECT ${COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_ts
       FROM audit_events ${w.length ? `WHERE ${w.join(' AND ')}` : ''}
       ORDER BY created_at DESC, id DESC LIMIT ${p.add(limit + 1)}`, p.values);
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      items: page.map(toEvent),
      next_cursor: more && last ? encodeCursor({ createdAt: last.cursor_ts, id: last.id }) : null,
    };
  }
}
