// Who is calling, as resolved from an API key, gateway headers or standalone mode.
import { DomainError, forbidden, unauthorized } from './errors.js';

export type IdentitySource = 'api_key' | 'gateway' | 'standalone' | 'anonymous' | 'system';

export const TRUST = { restricted: 0, standard: 1, crossFleet: 2, admin: 3 } as const;

export interface Caller {
  tenantId: string | null;
  agentId: string | null;
  trust: number;
  source: IdentitySource;
  keyId?: string;
  /** Tenants this caller may read besides its own (granted on the key). */
  readableTenants: string[];
  /** Whether this caller is authenticated (key or trusted gateway). */
  authenticated: boolean;
  /** The fleet the key is bound to (DEFAULTS "Trust levels and keys"); absent: the whole tenant. */
  fleetId?: string | null;
}

export const isAdmin = (c: Caller) => c.authenticated && c.trust >= TRUST.admin;

/**
 * The service acting for itself inside one tenant (ingest keeping a run's source, the skills
 * worker): the one kind of caller that may write the collections features own. Never built
 * from a request; cross-fleet within its tenant, never admin.
 */
export function systemCaller(tenantId: string, agentId: string | null = null): Caller {
  return { tenantId, agentId, trust: TRUST.crossFleet, source: 'system', readableTenants: [], authenticated: true };
}

export const isSystem = (c: Caller) => c.source === 'system' && c.authenticated;

/** The operator at the console (`loci keys …`, first start): admin, holding no tenant's identity. */
export const LOCAL_OPERATOR: Caller = Object.freeze({
  tenantId: null, agentId: null, trust: TRUST.admin, source: 'system', readableTenants: [], authenticated: true,
}) as Caller;

export function requireAuth(c: Caller): void {
  if (!c.authenticated) throw unauthorized();
}

export function requireTrust(c: Caller, level: number, what: string): void {
  requireAuth(c);
  if (c.trust < level) throw forbidden(`${what} needs trust level ${level} or higher (this key has ${c.trust})`);
}

/**
 * The tenant a request acts on. A named tenant must be the caller's own unless the
 * caller is an admin; reads may also name a tenant granted on the key.
 */
export function resolveTenant(c: Caller, requested: string | undefined | null, access: 'read' | 'write' = 'write'): string {
  requireAuth(c);
  const own = c.tenantId;
  if (requested == null || requested === '') {
    if (!own) throw new DomainError(400, 'Bad Request', 'tenant_id is required for this key');
    return own;
  }
  if (requested === own || isAdmin(c)) return requested;
  if (access === 'read' && c.readableTenants.includes(requested)) return requested;
  throw forbidden(`This key may not access tenant "${requested}"`);
}

/** Whether a read of `tenant` by this caller crosses tenants (audited). */
export const isCrossTenant = (c: Caller, tenant: string) => tenant !== c.tenantId;

/**
 * The fleet a caller stays in: a fleet-bound key below cross-fleet trust (2). Null when the
 * caller may cross fleets (unbound keys, trust 2 and up).
 */
export const confinedFleet = (c: Caller): string | null => (c.fleetId && c.trust < TRUST.crossFleet ? c.fleetId : null);

/**
 * The fleet a write lands in. A confined key writes into its fleet only (omitted or null means
 * its fleet); any other fleet-bound key defaults to its fleet and may name another, or null for
 * no fleet; an unbound key writes where it says.
 */
export function resolveWriteFleet(c: Caller, requested: string | null | undefined): string | null {
  const confined = confinedFleet(c);
  if (confined) {
    if (requested != null && requested !== confined) throw fleetForbidden(confined, requested);
    return confined;
  }
  return requested === undefined ? (c.fleetId ?? null) : requested;
}

/** Fleets a read names: a confined key may name only its own. */
export function checkReadFleets(c: Caller, requested: (string | null | undefined)[]): void {
  const confined = confinedFleet(c);
  const other = confined ? requested.find((f) => f != null && f !== confined) : undefined;
  if (confined && other != null) throw fleetForbidden(confined, other);
}

const fleetForbidden = (own: string, other: string) =>
  forbidden(`This key is bound to fleet "${own}" and may not reach fleet "${other}" (crossing fleets needs trust level 2)`);

/** Whether this caller may act as `agent`: not bound to another agent, or an admin. */
export const mayActAs = (c: Caller, agent: string) => !c.agentId || c.agentId === agent || isAdmin(c);

/** The agent a write is recorded under when neither the request nor the key names one. */
export const DEFAULT_AGENT = 'default';

/** The writing agent: the one named (if the key may act as it), else the key's, else `default`. */
export const writeAgent = (c: Caller, requested: string | undefined | null): string => resolveAgent(c, requested) ?? DEFAULT_AGENT;

/**
 * The agent a request acts as. An agent-scoped key is bound to its agent: naming
 * another agent is refused unless the caller is an admin.
 */
export function resolveAgent(c: Caller, requested: string | undefined | null): string | null {
  if (requested == null || requested === '') return c.agentId;
  if (!mayActAs(c, requested)) {
    throw forbidden(`This key is bound to agent "${c.agentId}" and may not act as "${requested}"`);
  }
  return requested;
}
