// Mapping exported records to writes for `loci memories import`.
import { describe, expect, it } from 'vitest';
import { ImportLineError, parseJsonl, toImportItem } from '../../src/cli/jsonl.js';

describe('import records', () => {
  const exported = {
    id: '5f0c2a8e-1111-4222-8333-444455556666', tenant_id: 'a', fleet_id: 'red', agent_id: 'alice', memory_type: 'decision',
    title: 'T', content: 'We chose Postgres', weight: 0.7, source_uri: null, run_id: null, metadata: { k: 1 },
    created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', expires_at: null, deleted_at: null,
    entity_links: [], subject_entity_id: '5f0c2a8e-1111-4222-8333-444455556667', predicate: null, object_value: null,
    ts_valid_start: null, ts_valid_end: null, status: 'archived', visibility: 'scope_agent', recall_count: 3,
    last_recalled_at: null, supersedes_id: null,
  };

  it('carries what a write may set and leaves the server-owned fields', () => {
    const { item, then } = toImportItem(exported, 1);
    expect(item).toEqual({
      content: 'We chose Postgres', title: 'T', memory_type: 'decision', weight: 0.7, source_uri: null, run_id: null, metadata: { k: 1 },
      expires_at: null, predicate: null, object_value: null, ts_valid_start: null, ts_valid_end: null, visibility: 'scope_agent',
      fleet_id: 'red', agent_id: 'alice', status: 'archived',
    });
    expect(then).toBeNull();
  });

  it('restores statuses a write cannot carry afterwards, and soft deletes as deleted', () => {
    expect(toImportItem({ ...exported, status: 'outdated' }, 1)).toMatchObject({ then: 'outdated' });
    expect(toImportItem({ ...exported, status: 'outdated' }, 1).item).not.toHaveProperty('status');
    expect(toImportItem({ ...exported, deleted_at: '2026-01-02T00:00:00Z' }, 1).then).toBe('deleted');
  });

  it('refuses lines it cannot write, naming the line', () => {
    expect(() => toImportItem({ content: '  ' }, 4)).toThrow(/line 4: no content/);
    expect(() => toImportItem({ ...exported, memory_type: 'insight' }, 2)).toThrow(ImportLineError);
    expect(() => toImportItem([1], 3)).toThrow(/line 3/);
    expect(() => parseJsonl('{"content":"a"}\n\n{oops\n')).toThrow(/line 3: not valid JSON/);
    expect(parseJsonl('{"content":"a"}\n\n{"content":"b"}\n').map((r) => r.line)).toEqual([1, 3]);
  });
});
