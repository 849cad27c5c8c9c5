// From a cluster to a skill draft: the cluster's features (its most shared words and entities,
// its most central memories, the actions several agents took), its fingerprint, and the
// template distillation used when no language model is configured.
import { createHash } from 'node:crypto';
import { byCentrality, clusterStats, similarity, type Cluster, type ClusterItem } from './cluster.js';
import { byteLength, SLUG_PATTERN } from './rules.js';

const STOPWORDS = new Set(`a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing done down during each few for from further get got had has
have having he her here hers him his how i if in into is it its itself just let like may me might more most must my no
nor not now of off on once only or other our ours out over own same she should so some such than that the their theirs
them then there these they this those through to too under until up upon us very was we were what when where which while
who whom why will with would you your yours yet again still even ever every much many via per then than one two three
today yesterday tomorrow time times really quite thing things lot lots use used using make made work worked working
agent agents team note noted noticed found seems seemed think thought`.split(/\s+/));

/** Lowercased words of a text, hyphenated words kept whole, simple plurals folded, stopwords and numbers dropped. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[a-z0-9][a-z0-9-]*[a-z0-9]|[a-z]/g) ?? []) {
    if (raw.length < 3 || STOPWORDS.has(raw) || /^\d+$/.test(raw)) continue;
    out.push(singular(raw));
  }
  return out;
}

function singular(w: string): string {
  if (w.length <= 4 || w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  if (w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

/** Items ranked by how many members hold them (then alphabetically). */
function rankByMembers(lists: string[][]): { key: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const list of lists) for (const k of new Set(list)) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts.entries()].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
}

export interface ClusterFeatures {
  stats: ReturnType<typeof clusterStats>;
  domain: string;
  /** Words most members share, most shared first. */
  topTerms: string[];
  /** Entities most members mention, most shared first. */
  topEntities: string[];
  central: ClusterItem[];
  /** Actions taken by two or more agents (one representative each), or the most central actions. */
  sharedActions: ClusterItem[];
  fingerprint: string;
}

const ACTION_TYPES = new Set(['action', 'decision', 'rule', 'plan', 'outcome']);
const SAME_ACTION = 0.6;

export function clusterFeatures(c: Cluster): ClusterFeatures {
  const stats = clusterStats(c);
  const central = byCentrality(c);
  const half = Math.max(2, Math.ceil(c.members.length / 2));
  const termRank = rankByMembers(c.members.map((m) => terms(m.content)));
  const topTerms = termRank.filter((t) => t.count >= Math.min(half, 2)).slice(0, 8).map((t) => t.key);
  const topEntities = rankByMembers(c.members.map((m) => m.entities)).filter((e) => e.count >= 2).slice(0, 8).map((e) => e.key);
  const domains = rankByMembers(c.members.map((m) => (m.domain ? [m.domain.toLowerCase()] : [])));
  const domain = domains[0]?.key ?? 'general';

  // Group actions by near-duplicate content; a group several agents share is a step of the practice.
  const actions = central.filter((m) => ACTION_TYPES.has(m.memory_type));
  const groups: ClusterItem[][] = [];
  for (const a of actions) {
    const g = groups.find((grp) => similarity(grp[0], a) >= SAME_ACTION);
    if (g) g.push(a);
    else groups.push([a]);
  }
  const shared = groups
    .filter((g) => new Set(g.map((m) => m.agent_id)).size >= 2)
    .sort((a, b) => b.length - a.length || firstTime(a) - firstTime(b));
  const sharedActions = (shared.length ? shared : groups).slice(0, 7).map((g) => g[0]);

  return { stats, domain, topTerms, topEntities, central, sharedActions, fingerprint: fingerprint(domain, topEntities, topTerms) };
}

const firstTime = (g: ClusterItem[]) => Math.min(...g.map((m) => Date.parse(m.observed_at)));

/**
 * A cluster's identity: its domain, its five most shared entities and six most shared words,
 * each sorted. Wording and membership changes that leave those alone keep the fingerprint.
 */
export function fingerprint(domain: string, entities: string[], topTerms: string[]): string {
  const canonical = [
    `domain=${domain.trim().toLowerCase()}`,
    `entities=${[...entities.slice(0, 5)].sort().join(',')}`,
    `terms=${[...topTerms.slice(0, 6)].sort().join(',')}`,
  ].join('\n');
  return `fp:v1:${createHash('sha256').update(canonical).digest('hex')}`;
}

export interface SkillDraft {
  slug: string;
  name: string;
  description: string;
  summary: string;
  domain: string;
  content: string;
  tags: string[];
  evidence: string;
}

/** Lowercase kebab-case slug of a name, within the slug pattern; `fallback` when nothing is left. */
export function slugify(name: string, fallback: string): string {
  const s = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80).replace(/-+$/, '');
  return s && SLUG_PATTERN.test(s) ? s : fallback;
}

/** The text cut to at most `max` UTF-8 bytes at a word boundary, with an ellipsis when cut. */
export function fitBytes(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (byteLength(t) <= max) return t;
  let cut = t;
  while (byteLength(cut + '…') > max && cut.length) {
    const sp = cut.lastIndexOf(' ');
    cut = sp > 0 ? cut.slice(0, sp) : cut.slice(0, -1);
  }
  return cut.replace(/[\s,;:.-]+$/, '') + '…';
}

/** The first sentence of a memory, at most `max` characters. */
export function firstSentence(text: string, max = 200): string {
  const t = text.replace(/\s+/g, ' ').trim();
  const m = t.match(/^(.+?[.!?])(?:\s|$)/);
  const s = m ? m[1] : t;
  return s.length <= max ? s : s.slice(0, max - 1).replace(/\s+\S*$/, '') + '…';
}

const day = (iso: string) => iso.slice(0, 10);

/** Words in the order they first appear in the text (as a reader would say them); unseen ones last. */
function inTextOrder(words: string[], text: string): string[] {
  const lower = text.toLowerCase();
  const at = (w: string) => {
    const i = lower.indexOf(w);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...words].sort((a, b) => at(a) - at(b));
}
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A skill written from the cluster alone: its shared words name it, its shared actions are the steps. */
export function templateDraft(f: ClusterFeatures, descriptionMaxBytes: number): SkillDraft {
  const lead = f.central[0];
  const nameWords = inTextOrder((f.topTerms.length ? f.topTerms : f.topEntities).slice(0, 4), f.central.slice(0, 3).map((m) => m.content).join(' '));
  const name = nameWords.length ? cap(nameWords.join(' ')) : `Practice shared by ${f.stats.distinct_agents} agents`;
  const topic = nameWords.join(' ') || 'this situation';
  const steps = f.sharedActions.map((m) => firstSentence(m.content));
  const description = fitBytes(`Use when dealing with ${topic}: ${steps[0] ?? firstSentence(lead.content)}`, descriptionMaxBytes);
  const summary = `Use when dealing with ${topic}. ${f.stats.distinct_agents} agents converged on this: ${firstSentence(lead.content, 300)}`;
  const learned = f.central.slice(0, 5).map((m) => `- ${firstSentence(m.content, 300)} (${m.agent_id}, ${day(m.observed_at)})`);
  const evidence = `Distilled from ${f.stats.cluster_size} memories by ${f.stats.distinct_agents} agents ` +
    `(${f.stats.agents.join(', ')}) between ${day(f.stats.window_start)} and ${day(f.stats.window_end)}.`;
  const content = [
    `# ${name}`,
    '',
    '## When to use',
    summary,
    '',
    '## Steps',
    ...(steps.length ? steps.map((s, i) => `${i + 1}. ${s}`) : ['1. Follow what the team learned below.']),
    '',
    '## What the team learned',
    ...learned,
    '',
    '## Evidence',
    evidence,
    '',
  ].join('\n');
  return {
    slug: slugify(name, `skill-${f.fingerprint.slice(-8)}`), name, description, summary, domain: f.domain, content,
    tags: f.topEntities.slice(0, 5), evidence,
  };
}
