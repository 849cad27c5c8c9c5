import { describe, expect, it } from 'vitest';
import { isSystem, resolveAgent, resolveTenant, systemCaller, type Caller } from '../../src/core/caller.js';
import { DomainError } from '../../src/core/errors.js';

const caller = (over: Partial<Caller> = {}): Caller => ({
  tenantId: 'acme', agentId: null, trust: 1, source: 'api_key', readableTenants: [], authenticated: true, ...over,
});

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as DomainError).status;
  }
  return 200;
};

describe('resolveTenant', () => {
  it('defaults to the caller tenant and accepts it named', () => {
    expect(resolveTenant(caller(), undefined)).toBe('acme');
    expect(resolveTenant(caller(), 'acme')).toBe('acme');
  });
  it('refuses another tenant with 403, for reads unless granted', () => {
    expect(status(() => resolveTenant(caller(), 'other'))).toBe(403);
    expect(status(() => resolveTenant(caller({ readableTenants: ['other'] }), 'other', 'write'))).toBe(403);
    expect(resolveTenant(caller({ readableTenants: ['other'] }), 'other', 'read')).toBe('other');
  });
  it('lets admins name any tenant', () => {
    expect(resolveTenant(caller({ trust: 3 }), 'other')).toBe('other');
  });
  it('needs authentication', () => {
    expect(status(() => resolveTenant(caller({ authenticated: false }), 'acme'))).toBe(401);
  });
});

describe('resolveAgent', () => {
  it('binds agent-scoped keys to their agent', () => {
    expect(resolveAgent(caller({ agentId: 'a1' }), undefined)).toBe('a1');
    expect(resolveAgent(caller({ agentId: 'a1' }), 'a1')).toBe('a1');
    expect(status(() => resolveAgent(caller({ agentId: 'a1' }), 'a2'))).toBe(403);
    expect(resolveAgent(caller({ agentId: 'a1', trust: 3 }), 'a2')).toBe('a2');
  });
  it('lets tenant-scoped keys name any agent', () => {
    expect(resolveAgent(caller(), 'a2')).toBe('a2');
    expect(resolveAgent(caller(), undefined)).toBeNull();
  });
});

describe('systemCaller', () => {
  it('is the service inside one tenant: cross-fleet, never admin, never another tenant', () => {
    const sys = systemCaller('acme');
    expect(isSystem(sys)).toBe(true);
    expect(isSystem(caller({ trust: 3 }))).toBe(false);
    expect(resolveTenant(sys, undefined)).toBe('acme');
    expect(status(() => resolveTenant(sys, 'other'))).toBe(403);
  });
});
