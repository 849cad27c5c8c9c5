// `loci skills sync`: writes every active skill to the harness skill directories named by
// LOCI_SKILL_TARGETS as <dir>/<slug>/SKILL.md. An `owned` directory is Loci's alone (anything
// else in it is pruned); in an `additive` one Loci touches only entries carrying its marker.
// `register` adds the directory to the harness's extra skill directories (LOCI_HARNESS_SETTINGS).
// A slug that is not a plain directory name is never written: nothing lands outside `dir`.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SLUG_PATTERN } from '../core/skills/rules.js';

export interface SkillTarget {
  dir: string;
  mode: 'owned' | 'additive';
  register?: boolean;
}

export interface SyncSkill {
  slug: string;
  description: string;
  content: string;
  content_hash?: string;
}

export interface TargetReport {
  dir: string;
  mode: 'owned' | 'additive';
  installed: string[];
  added: string[];
  updated: string[];
  removed: string[];
  /** Additive: a slug already taken by an entry Loci did not write (left alone). */
  collisions: string[];
  /** Catalog entries refused (a slug that is not a safe directory name). */
  skipped: string[];
  registered: boolean;
  error: string | null;
}

/** Marks a skill directory as written by Loci (additive mode touches only these). */
export const MARKER = '.loci-owned';
export const SKILL_FILE = 'SKILL.md';
/** The harness settings key holding extra skill directories (OpenClaw's `skills.load.extraDirs`). */
export const DEFAULT_SETTINGS_KEY = 'skills.load.extraDirs';
export const DEFAULT_TARGETS: SkillTarget[] = [{ dir: '~/.claude/skills', mode: 'additive' }];

const expand = (p: string) => resolve(p === '~' ? homedir() : p.startsWith('~/') ? join(homedir(), p.slice(2)) : p);

/** Parses LOCI_SKILL_TARGETS (a JSON array of {dir, mode, register?}); unset: the default target. */
export function parseTargets(raw: string | undefined): SkillTarget[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_TARGETS.map((t) => ({ ...t, dir: expand(t.dir) }));
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new Error('LOCI_SKILL_TARGETS must be a JSON array of {"dir", "mode": "owned" | "additive", "register"?}');
  }
  if (!Array.isArray(v) || !v.length) throw new Error('LOCI_SKILL_TARGETS must be a non-empty JSON array');
  return v.map((t, i) => {
    if (typeof t !== 'object' || t === null || Array.isArray(t)) throw new Error(`LOCI_SKILL_TARGETS[${i}] must be an object`);
    const o = t as Record<string, unknown>;
    if (typeof o.dir !== 'string' || !o.dir.trim()) throw new Error(`LOCI_SKILL_TARGETS[${i}].dir must be a path`);
    if (o.mode !== 'owned' && o.mode !== 'additive') throw new Error(`LOCI_SKILL_TARGETS[${i}].mode must be "owned" or "additive"`);
    if (o.register !== undefined && typeof o.register !== 'boolean') throw new Error(`LOCI_SKILL_TARGETS[${i}].register must be true or false`);
    const dir = expand(o.dir.trim());
    // A destructive prune of the filesystem root or a home directory is never what was meant.
    if (o.mode === 'owned' && (dir === resolve('/') || dir === homedir())) {
      throw new Error(`LOCI_SKILL_TARGETS[${i}]: refusing "owned" (prune everything) on ${dir}`);
    }
    return { dir, mode: o.mode, register: o.register === true };
  });
}

/** The directory of a skill inside `dir`, or null when the slug could name anything else. */
export function skillPath(dir: string, slug: unknown): string | null {
  if (typeof slug !== 'string' || !SLUG_PATTERN.test(slug)) return null;
  const base = resolve(dir);
  const p = resolve(base, slug);
  const prefix = base.endsWith(sep) ? base : base + sep;
  return dirname(p) === base && p.startsWith(prefix) ? p : null;
}

/** SKILL.md: front matter `name` (the slug, a harness-safe identifier) and `description`, then the body. */
export function skillFile(s: SyncSkill): string {
  const body = s.content.endsWith('\n') ? s.content : `${s.content}\n`;
  return `---\nname: ${s.slug}\ndescription: ${JSON.stringify(s.description.replace(/\s+/g, ' ').trim())}\n---\n\n${body}`;
}

const lstat = (p: string) => {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
};

/** Replaces a file atomically; a symlink in its place is replaced, never written through. */
function writeAtomic(path: string, text: string): void {
  const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(tmp, text, { flag: 'wx', mode: 0o644 });
  renameSync(tmp, path);
}

/** Removes an entry without following it if it is a symlink. */
function removeEntry(path: string): void {
  const st = lstat(path);
  if (!st) return;
  if (st.isDirectory()) rmSync(path, { recursive: true, force: true });
  else unlinkSync(path);
}

function writeSkill(path: string, s: SyncSkill): 'added' | 'updated' | 'unchanged' {
  const st = lstat(path);
  let result: 'added' | 'updated' | 'unchanged' = 'added';
  if (st && !st.isDirectory()) removeEntry(path);
  else if (st) result = 'updated';
  mkdirSync(path, { recursive: true });
  const file = join(path, SKILL_FILE);
  const text = skillFile(s);
  const fst = lstat(file);
  if (result === 'updated' && fst?.isFile() && readFileSync(file, 'utf8') === text) result = 'unchanged';
  else writeAtomic(file, text);
  if (!lstat(join(path, MARKER))?.isFile()) writeAtomic(join(path, MARKER), `${JSON.stringify({ slug: s.slug })}\n`);
  return result;
}

const isOurs = (path: string) => lstat(path)?.isDirectory() === true && lstat(join(path, MARKER))?.isFile() === true;

export function syncTarget(target: SkillTarget, skills: SyncSkill[]): TargetReport {
  const r: TargetReport = {
    dir: target.dir, mode: target.mode, installed: [], added: [], updated: [], removed: [], collisions: [], skipped: [], registered: false, error: null,
  };
  const dir = resolve(target.dir);
  mkdirSync(dir, { recursive: true });
  const wanted = new Map<string, SyncSkill>();
  for (const s of skills) {
    if (skillPath(dir, s.slug) && typeof s.content === 'string' && typeof s.description === 'string') wanted.set(s.slug, s);
    else r.skipped.push(String(s.slug));
  }
  // Prune first: in owned mode everything not wanted, in additive mode only our own entries.
  for (const name of readdirSync(dir).sort()) {
    if (wanted.has(name)) continue;
    const p = join(dir, name);
    if (target.mode === 'owned' || isOurs(p)) {
      removeEntry(p);
      r.removed.push(name);
    }
  }
  for (const [slug, s] of [...wanted].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const p = skillPath(dir, slug)!;
    if (target.mode === 'additive' && lstat(p) && !isOurs(p)) {
      r.collisions.push(slug);
      continue;
    }
    const res = writeSkill(p, s);
    if (res === 'added') r.added.push(slug);
    else if (res === 'updated') r.updated.push(slug);
    r.installed.push(slug);
  }
  return r;
}

/**
 * Adds `dir` to the list at `key` (dotted) in the JSON settings file, keeping everything else;
 * appends only when missing. A file that is not a JSON object is left alone (error).
 */
export function registerDir(settingsPath: string, dir: string, key = DEFAULT_SETTINGS_KEY): boolean {
  const path = expand(settingsPath);
  let settings: Record<string, unknown> = {};
  if (existsSync(path)) {
    const raw = readFileSync(path, 'utf8');
    const parsed: unknown = raw.trim() ? JSON.parse(raw) : {};
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${path} does not hold a JSON object`);
    settings = parsed as Record<string, unknown>;
  }
  const parts = key.split('.');
  let cur: Record<string, unknown> = settings;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(cur, part) ? cur[part] : undefined;
    if (next === undefined) cur = (cur[part] = {}) as Record<string, unknown>;
    else if (typeof next === 'object' && next !== null && !Array.isArray(next)) cur = next as Record<string, unknown>;
    else throw new Error(`${path}: "${part}" in ${key} is not an object`);
  }
  const last = parts[parts.length - 1];
  const list = Object.hasOwn(cur, last) ? cur[last] : undefined;
  if (list !== undefined && !Array.isArray(list)) throw new Error(`${path}: ${key} is not a list`);
  const dirs = (list ?? []) as unknown[];
  const target = resolve(dir);
  if (dirs.some((d) => typeof d === 'string' && resolve(expand(d)) === target)) return false;
  cur[last] = [...dirs, target];
  mkdirSync(dirname(path), { recursive: true });
  writeAtomic(path, `${JSON.stringify(settings, null, 2)}\n`);
  return true;
}

export interface SyncOptions {
  targets: SkillTarget[];
  settingsPath?: string;
  settingsKey?: string;
}

export function syncAll(skills: SyncSkill[], o: SyncOptions): TargetReport[] {
  return o.targets.map((t) => {
    let r: TargetReport;
    try {
      r = syncTarget(t, skills);
    } catch (err) {
      return { dir: t.dir, mode: t.mode, installed: [], added: [], updated: [], removed: [], collisions: [], skipped: [], registered: false,
        error: err instanceof Error ? err.message : String(err) };
    }
    if (t.register) {
      if (!o.settingsPath) r.error = 'register needs LOCI_HARNESS_SETTINGS (the harness settings file)';
      else {
        try {
          registerDir(o.settingsPath, t.dir, o.settingsKey);
          r.registered = true;
        } catch (err) {
          r.error = `register: ${err instanceof Error ? err.message : String(err)}`;
        }
      }
    }
    return r;
  });
}

/** Fetches the active skills from a running server (fails, writing nothing, on any non-2xx). */
export async function fetchInstallable(url: string, key: string | undefined, body: { tenant_id?: string; fleet_id?: string }): Promise<SyncSkill[]> {
  const res = await fetch(`${url.replace(/\/+$/, '')}/api/v1/skills/installable`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} from the server: ${text.slice(0, 300)}`);
  const parsed = JSON.parse(text) as { items?: unknown };
  if (!Array.isArray(parsed.items)) throw new Error('the server answered without an items list');
  return parsed.items as SyncSkill[];
}
