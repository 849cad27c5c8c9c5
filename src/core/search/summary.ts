// The extractive context summary of recall: the retrieved memories, near-duplicates removed by
// maximal marginal relevance (MMR) over word overlap, grouped by the entity each is about, each
// fact citing its memory id and flagging conflicted ones. Pure.
import type { MemoryRecord } from '../memories/types.js';
import type { SummaryConfig } from './config.js';

export const EMPTY_SUMMARY = 'No relevant context found.';
export const GENERAL_SUBJECT = 'General';

export interface SummaryInput {
  memory: Pick<MemoryRecord, 'id' | 'content' | 'status' | 'entity_links'>;
  /** Relevance, higher first (the fused score); only the order and ratios matter. */
  score: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

export function wordSet(text: string): Set<string> {
  return new Set((text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 1));
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}

/**
 * MMR selection: repeatedly keeps the item with the best λ·relevance − (1−λ)·(overlap with what
 * is kept); an item overlapping a kept one at `duplicateThreshold` or more is dropped as a
 * near-duplicate. Returns the kept items in selection order.
 */
export function mmrSelect<T extends SummaryInput>(items: readonly T[], cfg: Pick<SummaryConfig, 'mmrLambda' | 'duplicateThreshold' | 'maxFacts'>): T[] {
  const top = Math.max(...items.map((i) => i.score), 0);
  const pool = items.map((item) => ({ item, rel: top > 0 ? item.score / top : 1, words: wordSet(item.memory.content) }));
  const kept: typeof pool = [];
  while (pool.length && kept.length < cfg.maxFacts) {
    let best = -1;
    let bestValue = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      const overlap = Math.max(0, ...kept.map((k) => jaccard(k.words, pool[i].words)));
      if (overlap >= cfg.duplicateThreshold) {
        pool.splice(i--, 1);
        continue;
      }
      const value = cfg.mmrLambda * pool[i].rel - (1 - cfg.mmrLambda) * overlap;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    if (best < 0) break;
    kept.push(pool.splice(best, 1)[0]);
  }
  return kept.map((k) => k.item);
}

/** What a memory is about: its subject entity, else the first entity it mentions, else General. */
export function subjectOf(m: Pick<MemoryRecord, 'entity_links'>): string {
  const links = m.entity_links ?? [];
  return (links.find((l) => l.role === 'subject') ?? links[0])?.name ?? GENERAL_SUBJECT;
}

/** One line of a summary: the fact (shortened), its conflicted flag and its id. */
export function factLine(m: Pick<MemoryRecord, 'id' | 'content' | 'status'>, maxChars: number): string {
  let text = m.content.replace(/\s+/g, ' ').trim();
  if (text.length > maxChars) text = `${text.slice(0, Math.max(1, maxChars - 1)).trimEnd()}…`;
  const flag = m.status === 'conflicted' ? ' (conflicted)' : '';
  return `${text}${flag} [${m.id}]`;
}

/**
 * Groups the MMR-selected facts by subject. MMR picks the most relevant fact first, so groups
 * come in the order their first fact was selected, and facts keep that order within a group.
 */
export function extractiveSummary(items: readonly SummaryInput[], cfg: SummaryConfig): string {
  if (items.length === 0) return EMPTY_SUMMARY;
  const groups = new Map<string, string[]>();
  for (const { memory } of mmrSelect(items, cfg)) {
    const subject = subjectOf(memory);
    let lines = groups.get(subject);
    if (!lines) groups.set(subject, (lines = []));
    lines.push(factLine(memory, cfg.maxFactChars));
  }
  return [...groups].map(([subject, lines]) => `${subject}:\n${lines.map((l) => `- ${l}`).join('\n')}`).join('\n');
}
