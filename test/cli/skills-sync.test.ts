// Delivery to harness skill directories on real temporary directories: owned and additive
// modes, a hostile catalog that tries to escape the directory, and registration in a real
// harness settings file.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MARKER, parseTargets, registerDir, skillPath, syncAll, syncTarget, type SyncSkill } from '../../src/cli/skills-sync.js';

const skill = (slug: string, content = `# ${slug}\n\n1. Do the thing.`): SyncSkill => ({ slug, description: `Use when ${slug}.`, content });

describe('loci skills sync', () => {
  let root: string;
  let dir: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'loci-sync-'));
    dir = join(root, 'skills');
    mkdirSync(dir);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const hostile: SyncSkill[] = [
    skill('../escape'), skill('../../etc/passwd'), skill('/abs'), skill('.hidden'), skill('a/b'), skill('..'), skill(''),
    { slug: 42 as unknown as string, description: 'x', content: 'y' },
  ];
  const outside = () => readdirSync(root).sort();

  it('owned: writes every skill and prunes everything else; hostile slugs never escape', () => {
    writeFileSync(join(dir, 'stray.txt'), 'not ours');
    mkdirSync(join(dir, 'old-skill'));
    writeFileSync(join(root, 'keep.txt'), 'outside');
    symlinkSync(join(root, 'keep.txt'), join(dir, 'link-out'));

    const r = syncTarget({ dir, mode: 'owned' }, [skill('deploy-eu'), skill('rotate-logs'), ...hostile]);
    expect(r.installed).toEqual(['deploy-eu', 'rotate-logs']);
    expect(r.removed.sort()).toEqual(['link-out', 'old-skill', 'stray.txt']);
    expect(r.skipped).toHaveLength(hostile.length);
    expect(readdirSync(dir).sort()).toEqual(['deploy-eu', 'rotate-logs']);
    // The symlink went, not what it pointed at; nothing was written beside `dir`.
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('outside');
    expect(outside()).toEqual(['keep.txt', 'skills']);
    const file = readFileSync(join(dir, 'deploy-eu', 'SKILL.md'), 'utf8');
    expect(file).toBe('---\nname: deploy-eu\ndescription: "Use when deploy-eu."\n---\n\n# deploy-eu\n\n1. Do the thing.\n');

    // A skill that left the catalog is pruned; an unchanged one is left as is.
    const again = syncTarget({ dir, mode: 'owned' }, [skill('deploy-eu')]);
    expect(again).toMatchObject({ installed: ['deploy-eu'], added: [], updated: [], removed: ['rotate-logs'] });
  });

  it('additive: touches only its own entries and reports collisions', () => {
    mkdirSync(join(dir, 'theirs'));
    writeFileSync(join(dir, 'theirs', 'SKILL.md'), 'their skill');
    mkdirSync(join(dir, 'deploy-eu'));
    writeFileSync(join(dir, 'deploy-eu', 'SKILL.md'), 'a skill of the same name that is not ours');
    writeFileSync(join(dir, 'notes.md'), 'theirs too');

    const r = syncTarget({ dir, mode: 'additive' }, [skill('deploy-eu'), skill('rotate-logs'), ...hostile]);
    expect(r).toMatchObject({ installed: ['rotate-logs'], added: ['rotate-logs'], collisions: ['deploy-eu'], removed: [] });
    expect(readFileSync(join(dir, 'deploy-eu', 'SKILL.md'), 'utf8')).toBe('a skill of the same name that is not ours');
    expect(existsSync(join(dir, 'rotate-logs', MARKER))).toBe(true);

    const updated = syncTarget({ dir, mode: 'additive' }, [skill('rotate-logs', '# rotate-logs v2')]);
    expect(updated).toMatchObject({ updated: ['rotate-logs'], removed: [] });
    expect(readFileSync(join(dir, 'rotate-logs', 'SKILL.md'), 'utf8')).toContain('v2');

    // An empty catalog removes only what Loci wrote.
    const emptied = syncTarget({ dir, mode: 'additive' }, []);
    expect(emptied.removed).toEqual(['rotate-logs']);
    expect(readdirSync(dir).sort()).toEqual(['deploy-eu', 'notes.md', 'theirs']);
    expect(outside()).toEqual(['skills']);
  });

  it('never writes through a symlink planted inside a skill directory', () => {
    syncTarget({ dir, mode: 'additive' }, [skill('rotate-logs')]);
    writeFileSync(join(root, 'victim.txt'), 'precious');
    rmSync(join(dir, 'rotate-logs', 'SKILL.md'));
    symlinkSync(join(root, 'victim.txt'), join(dir, 'rotate-logs', 'SKILL.md'));
    syncTarget({ dir, mode: 'additive' }, [skill('rotate-logs', '# changed')]);
    expect(readFileSync(join(root, 'victim.txt'), 'utf8')).toBe('precious');
    expect(lstatSync(join(dir, 'rotate-logs', 'SKILL.md')).isSymbolicLink()).toBe(false);
  });

  it('resolves skill paths strictly inside the directory', () => {
    expect(skillPath(dir, 'ok.name_1')).toBe(join(dir, 'ok.name_1'));
    for (const bad of ['..', '../x', 'a/../../b', '/etc', '.', '', 'A', 'x'.repeat(101)]) expect(skillPath(dir, bad)).toBeNull();
  });

  it('registers the directory in a real harness settings file, once, keeping everything else', () => {
    const settingsPath = join(root, 'harness.json');
    writeFileSync(settingsPath, JSON.stringify({ theme: 'dark', skills: { load: { extraDirs: ['/opt/team-skills'], watch: true } } }, null, 2));
    const reports = syncAll([skill('deploy-eu')], { targets: [{ dir, mode: 'additive', register: true }], settingsPath });
    expect(reports[0]).toMatchObject({ registered: true, error: null, installed: ['deploy-eu'] });
    const once = JSON.parse(readFileSync(settingsPath, 'utf8'));
    expect(once).toEqual({ theme: 'dark', skills: { load: { extraDirs: ['/opt/team-skills', dir], watch: true } } });
    syncAll([skill('deploy-eu')], { targets: [{ dir, mode: 'additive', register: true }], settingsPath });
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual(once);

    // A missing file is created; one that is not a JSON object is left alone and reported.
    const fresh = join(root, 'new', 'settings.json');
    expect(registerDir(fresh, dir)).toBe(true);
    expect(JSON.parse(readFileSync(fresh, 'utf8'))).toEqual({ skills: { load: { extraDirs: [dir] } } });
    writeFileSync(settingsPath, '[1, 2]');
    const bad = syncAll([], { targets: [{ dir, mode: 'additive', register: true }], settingsPath });
    expect(bad[0].error).toMatch(/register/);
    expect(readFileSync(settingsPath, 'utf8')).toBe('[1, 2]');
    // Without a settings file named, register is reported, not guessed.
    expect(syncAll([], { targets: [{ dir, mode: 'additive', register: true }] })[0].error).toMatch(/LOCI_HARNESS_SETTINGS/);
  });

  it('parses LOCI_SKILL_TARGETS strictly', () => {
    expect(parseTargets(JSON.stringify([{ dir, mode: 'owned' }, { dir: '~/x', mode: 'additive', register: true }]))).toEqual([
      { dir, mode: 'owned', register: false }, { dir: expect.stringMatching(/\/x$/), mode: 'additive', register: true },
    ]);
    expect(parseTargets(undefined)[0]).toMatchObject({ mode: 'additive', dir: expect.stringContaining('.claude/skills') });
    for (const bad of ['nope', '{}', '[]', '[{"dir": "/tmp/x"}]', '[{"dir": "/tmp/x", "mode": "mine"}]', '[{"dir": "/", "mode": "owned"}]', '[{"dir": "~", "mode": "owned"}]']) {
      expect(() => parseTargets(bad), bad).toThrow(/LOCI_SKILL_TARGETS/);
    }
  });
});
