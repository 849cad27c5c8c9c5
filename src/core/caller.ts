// Who is calling, as resolved from an API key, gateway headers or standalone mode.
import { ApiError, forbidden, unauthorized } from '../http/errors.js';

export type IdentitySource = 'api_key' | 'gateway' | 'standalone' | 'anonymous';

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
}

export const isAdmin = (c: Caller) => c.authenticated && c.trust >= TRUST.admin;

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
    if (!own) throw new ApiError(400, 'Bad Request', 'tenant_id is required for this key');
    return own;
  }
  if (requested === own || isAdmin(c)) return requested;
  if (access === 'read' && c.readableTenants.includes(requested)) return requested;
  throw forbidden(`This key may not access tenant "${requested}"`);
}

/** Whether a read of `tenant` by this caller crosses tenants (audited). */
export const isCrossTenant = (c: Caller, tenant: string) => tenant !== c.tenantId;

/**
 * The agent a request acts as. An agent-scoped key is bound to its agent: naming
 * another agent is refused unless the caller is an admin.
 */
export function resolveAgent(c: Caller, requested: string | undefined | null): string | null {
  if (requested == null || requested === '') return c.agentId;
  if (c.agentId && requested !== c.agentId && !isAdmin(c)) {
    throw forbidden(`This key is bound to agent "${c.agentId}" and may not act as "${requested}"`);
  }
  return requested;
}
