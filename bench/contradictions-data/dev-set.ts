// Loads the contradiction development set (test/fixtures/contradictions-dev.json) with its LoCoMo
// references resolved to text from the data set on this machine (LOCI_LOCOMO_PATH, default
// ../shared/bench/locomo10.json). Without that file the LoCoMo pairs are left out and counted.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DevPair, LocomoRef } from './split.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ResolvedPair extends Omit<DevPair, 'older' | 'newer'> {
  older: string;
  newer: string;
}

/** LOCI_LOCOMO_PATH, else shared/bench/locomo10.json beside the checkout (or beside its worktree folder). */
export function locomoPath(): string {
  if (process.env.LOCI_LOCOMO_PATH) return process.env.LOCI_LOCOMO_PATH;
  const near = resolve(root, '..', 'shared', 'bench', 'locomo10.json');
  const far = resolve(root, '..', '..', 'shared', 'bench', 'locomo10.json');
  return existsSync(near) || !existsSync(far) ? near : far;
}

/** Sentences of a LoCoMo turn, split as when the pairs were chosen. */
const turnSentences = (t: string) => t.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);

export function loadDevSet(file = join(root, 'test/fixtures/contradictions-dev.json')): { pairs: ResolvedPair[]; skipped: number; locomo: string | null } {
  const { pairs } = JSON.parse(readFileSync(file, 'utf8')) as { pairs: DevPair[] };
  const path = locomoPath();
  const turns = new Map<string, string>();
  const haveLocomo = existsSync(path);
  if (haveLocomo) {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Array<{ conversation: Record<string, unknown>; observation: Record<string, Record<string, Array<[string, string]>>> }>;
    data.forEach((sample, i) => {
      for (const [k, v] of Object.entries(sample.conversation)) {
        if (!/^session_\d+$/.test(k) || !Array.isArray(v)) continue;
        for (const t of v as Array<{ dia_id: string; text: string }>) turns.set(`${i}/${t.dia_id}`, t.text);
      }
      for (const [k, bySpeaker] of Object.entries(sample.observation ?? {})) {
        for (const [speaker, items] of Object.entries(bySpeaker)) items.forEach(([t], j) => turns.set(`${i}/${k}/${speaker}/${j}`, t));
      }
    });
  }
  const text = (x: string | LocomoRef): string | null => {
    if (typeof x === 'string') return x;
    if ('obs' in x) return turns.get(`${x.locomo}/${x.obs}/${x.speaker}/${x.index}`) ?? null;
    const turn = turns.get(`${x.locomo}/${x.dia_id}`);
    if (turn === undefined) return null;
    if (!x.sentences) return turn;
    const s = turnSentences(turn);
    return x.sentences.map((i) => s[i]).filter(Boolean).join(' ') || null;
  };
  const out: ResolvedPair[] = [];
  let skipped = 0;
  for (const p of pairs) {
    const older = text(p.older);
    const newer = text(p.newer);
    if (older === null || newer === null) {
      skipped++;
      continue;
    }
    out.push({ ...p, older, newer });
  }
  return { pairs: out, skipped, locomo: haveLocomo ? path : null };
}

/** The development sets: changelog and LoCoMo pairs, and agent-style pairs (each split by source document). */
export const DEV_FILES = ['test/fixtures/contradictions-dev.json', 'test/fixtures/contradictions-agent.json', 'test/fixtures/contradictions-changes.json'];

export function devSets(): Array<ReturnType<typeof loadDevSet> & { name: string }> {
  return DEV_FILES.map((f) => ({ name: f.replace(/^.*\//, ''), ...loadDevSet(join(root, f)) }));
}
