// Pure rules behind Caura compatibility: which addresses are loopback, when a request may go
// without a key, aliases of field names, and tags folded into metadata.
import { describe, expect, it } from 'vitest';
import { isLoopback, keylessAllowed } from '../../src/http/identity.js';
import { takeAlias } from '../../src/http/caura-names.js';
import { withClientTags } from '../../src/core/memories/write.js';
import { ValidationError } from '../../src/core/errors.js';
import { loadConfig } from '../../src/config.js';

describe('isLoopback', () => {
  it('knows the loopback names and addresses, IPv4-mapped ones included', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.5', '::ffff:10.0.0.1', '128.0.0.1', 'example.com', '127.0.0.1.evil', '', undefined]) {
      expect(isLoopback(a), String(a)).toBe(false);
    }
  });

  it('keyless needs standalone mode, the setting, a loopback bind and a loopback peer', () => {
    const cfg = (env: Record<string, string>) => loadConfig({ LOCI_DATA_DIR: '/tmp/x', ...env });
    expect(keylessAllowed(cfg({}), '127.0.0.1')).toBe(true);
    expect(keylessAllowed(cfg({}), '10.0.0.2')).toBe(false);
    expect(keylessAllowed(cfg({ LOCI_HOST: '0.0.0.0' }), '127.0.0.1')).toBe(false);
    expect(keylessAllowed(cfg({ LOCI_MODE: 'multitenant' }), '127.0.0.1')).toBe(false);
    expect(keylessAllowed(cfg({ LOCI_KEYLESS_LOOPBACK: 'false' }), '127.0.0.1')).toBe(false);
  });
});

describe('takeAlias', () => {
  it('moves the alias onto our name, accepts both when equal, refuses both when different', () => {
    const a: Record<string, unknown> = { where: { x: 1 } };
    takeAlias(a, 'body', 'where', 'filter');
    expect(a).toEqual({ filter: { x: 1 } });
    const same: Record<string, unknown> = { written_by: 'a', filter_agent_id: 'a' };
    takeAlias(same, 'query', 'written_by', 'filter_agent_id');
    expect(same).toEqual({ filter_agent_id: 'a' });
    const clash: Record<string, unknown> = { status_filter: 'active', status: 'pending' };
    try {
      takeAlias(clash, 'body', 'status_filter', 'status');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).items[0]).toMatchObject({ loc: ['body', 'status_filter'], input: 'active' });
    }
    const none: Record<string, unknown> = { status: 'x' };
    takeAlias(none, 'body', 'status_filter', 'status');
    expect(none).toEqual({ status: 'x' });
  });
});

describe('withClientTags', () => {
  it('keeps tags as metadata.tags after those the metadata names, and drops write_mode', () => {
    expect(withClientTags({ content: 'c', tags: ['a', 'b'], write_mode: 'fast' })).toEqual({ content: 'c', metadata: { tags: ['a', 'b'] } });
    expect(withClientTags({ content: 'c', metadata: { k: 1, tags: ['b', 'z'] }, tags: ['a', 'b'] }))
      .toEqual({ content: 'c', metadata: { k: 1, tags: ['b', 'z', 'a'] } });
    expect(withClientTags({ content: 'c', tags: [] })).toEqual({ content: 'c' });
    expect(withClientTags({ content: 'c', metadata: { k: 1 } })).toEqual({ content: 'c', metadata: { k: 1 } });
  });
});
