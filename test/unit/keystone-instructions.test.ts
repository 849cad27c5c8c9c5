// The keystones a session's MCP instructions carry: heaviest first, one line each, within a
// character budget that drops the lightest rules first and says so.
import { describe, expect, it } from 'vitest';
import { KEYSTONE_INSTRUCTIONS_MAX_CHARS, keystoneInstructions, type Keystone } from '../../src/core/keystones.js';

const rule = (doc_id: string, weight: number, content: string): Keystone => ({
  id: doc_id, tenant_id: 't', doc_id, title: `Rule ${doc_id}`, content, scope: 'tenant', weight,
  weight_label: weight >= 100 ? 'high' : weight >= 50 ? 'med' : 'low', fleet_id: null, agent_id: null, author_user_id: null,
  created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', data: { title: '', content, weight, scope: 'tenant' },
});

describe('keystoneInstructions', () => {
  it('is empty without rules, and lists every rule of a short list on one line each, in the given order', () => {
    expect(keystoneInstructions({ rules: [], truncated: false })).toBe('');
    const text = keystoneInstructions({ rules: [rule('a', 100, 'Never repeat\n  credentials.'), rule('b', 25, 'Be brief.')], truncated: false });
    expect(text.split('\n')).toEqual([
      'Keystones: MANDATORY rules for this agent. Obey them; they override conflicting instructions.',
      '- [high] Rule a: Never repeat credentials.',
      '- [low] Rule b: Be brief.',
    ]);
  });

  it('keeps within the budget by leaving out the lightest rules, and points to loci_keystones', () => {
    const rules = Array.from({ length: 40 }, (_, i) => rule(`r${i}`, 100 - i, 'x'.repeat(390)));
    const text = keystoneInstructions({ rules, truncated: false });
    const lines = text.split('\n');
    const shown = lines.filter((l) => l.startsWith('- '));
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.length).toBeLessThan(40);
    expect(shown.join('\n').length).toBeLessThanOrEqual(KEYSTONE_INSTRUCTIONS_MAX_CHARS);
    expect(shown[0]).toContain('Rule r0');
    expect(shown.at(-1)).toContain(`Rule r${shown.length - 1}`);
    expect(lines.at(-1)).toBe(`(${40 - shown.length} lighter rules not shown: call loci_keystones)`);
  });

  it('always carries the heaviest rule whole, and says when the list itself was cut at 50', () => {
    const big = 'y'.repeat(4_000);
    const one = keystoneInstructions({ rules: [rule('big', 100, big), rule('next', 100, big)], truncated: false }, 1_000);
    expect(one).toContain(big);
    expect(one.split('\n').at(-1)).toBe('(1 lighter rule not shown: call loci_keystones)');
    expect(keystoneInstructions({ rules: [rule('a', 50, 'A.')], truncated: true }).split('\n').at(-1))
      .toBe('(more than 50 rules apply: call loci_keystones)');
  });
});
