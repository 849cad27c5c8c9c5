// Forge: one tick per opted-in tenant clusters the recent memories of its agents, distils one
// candidate skill per cluster that has enough memories from enough agents, fingerprints and
// scans it, runs the six gates and stages it (or activates it with auto_promote_clean). A
// cluster that matches an existing skill (same fingerprint, or mostly the same memories) makes
// nothing new, so a second tick over the same memories changes nothing.
import type { Logger } from 'pino';
import type { Db } from '../../store/db.js';
import type { LlmClient } from '../../providers/llm/types.js';
import type { Embedder } from '../../providers/embedder/types.js';
import { BACKGROUND_SENTENCES } from './background.js';
import {
  forgeMemories, forgeSkills, liveRejection, memoryEntities, readSkill, releaseForgeLease, takeForgeLease,
} from '../../store/skills.js';
import { type Caller, requireTrust, TRUST } from '../caller.js';
import type { SkillCatalog } from './catalog.js';
import type { OrgSettingsService } from './org-settings.js';
import type { SkillsFactorySettings } from './settings.js';
import { clusterMemories, DEFAULT_CLUSTER_PARAMS, meanVector, type ClusterItem, type ClusterParams } from './cluster.js';
import { clusterFeatures, templateDraft, type ClusterFeatures, type SkillDraft } from './distill.js';
import { llmDraft } from './distill-llm.js';
import { runGates, type GateName } from './gates.js';
import { checkSkillWrite, type SkillState } from './rules.js';
import { isClean, scanSkill } from './scan.js';
import { inBackground } from '../../infra/priority.js';

/** Memory types Forge learns from: what agents did, decided and found out, not plain facts. */
export const FORGE_MEMORY_TYPES = ['action', 'decision', 'outcome', 'rule', 'insight', 'plan', 'episode'] as const;
/** Most recent memories one tick reads (clustering is quadratic in this). */
export const FORGE_MAX_MEMORIES = 1500;
/** A tick that started this long ago is taken for dead and its lease taken over. */
export const FORGE_LEASE_MS = 15 * 60_000;
/** A cluster whose memories are mostly those a skill was distilled from is that skill. */
const SAME_SKILL_OVERLAP = 0.5;

export interface ForgeSkillOutcome {
  slug: string;
  status: SkillState | 'unchanged' | 'poisoned';
  cluster_size: number;
  distinct_agents: number;
  failed_gates: GateName[];
}

export interface ForgeTickReport {
  tenant_id: string;
  ran: boolean;
  /** Why a tick did not run: disabled, busy (another tick holds the lease) or error. */
  skipped: 'disabled' | 'busy' | 'error' | null;
  memories_scanned: number;
  clusters: number;
  /** Clusters too small or from too few agents to distil (the volume and diversity gates, checked first). */
  below_thresholds: { volume: number; diversity: number };
  staged: number;
  activated: number;
  /** Candidates written or kept as `candidate` because a gate failed. */
  held: number;
  poisoned: number;
  unchanged: number;
  distilled_by: { llm: number; template: number };
  skills: ForgeSkillOutcome[];
  error: string | null;
  started_at: string;
  tick_ms: number;
}

export interface ForgeDeps {
  db: Db;
  catalog: SkillCatalog;
  settings: OrgSettingsService;
  llm: LlmClient | null;
  llmTimeoutMs: number;
  /** The embedder memories were embedded with: its background direction is removed before clustering. */
  embedder?: Embedder;
  log?: Pick<Logger, 'warn' | 'info'>;
  clusterParams?: ClusterParams;
}

function emptyReport(tenant: string, now: Date): ForgeTickReport {
  return {
    tenant_id: tenant, ran: false, skipped: null, memories_scanned: 0, clusters: 0, below_thresholds: { volume: 0, diversity: 0 },
    staged: 0, activated: 0, held: 0, poisoned: 0, unchanged: 0, distilled_by: { llm: 0, template: 0 }, skills: [], error: null,
    started_at: now.toISOString(), tick_ms: 0,
  };
}

export class ForgeService {
  private background: Promise<Float64Array | null> | null = null;

  constructor(private readonly deps: ForgeDeps) {}

  /** The model's background direction, embedded once per process (null without an embedder). */
  private backgroundVector(): Promise<Float64Array | null> {
    const embedder = this.deps.embedder;
    if (!embedder) return Promise.resolve(null);
    this.background ??= embedder.embed([...BACKGROUND_SENTENCES]).then(meanVector, (err) => {
      this.background = null; // try again next tick
      throw err;
    });
    return this.background;
  }

  /** One tick for every tenant that opted in (admin endpoint and CLI). */
  async fanout(caller: Caller): Promise<{ ticked_at: string; tenants: ForgeTickReport[] }> {
    requireTrust(caller, TRUST.admin, 'Running the Forge');
    const at = this.deps.catalog.clock();
    const tenants: ForgeTickReport[] = [];
    for (const t of await this.deps.settings.enabledTenants()) tenants.push(await this.tick(t));
    return { ticked_at: at.toISOString(), tenants };
  }

  /** One tick for one tenant; never throws (a failure is reported as skipped: error). Background work: requests go first. */
  tick(tenant: string): Promise<ForgeTickReport> {
    return inBackground(() => this.tickNow(tenant));
  }

  private async tickNow(tenant: string): Promise<ForgeTickReport> {
    const now = this.deps.catalog.clock();
    const report = emptyReport(tenant, now);
    const t0 = performance.now();
    const settings = await this.deps.settings.skillsFactory(tenant);
    if (!settings.enabled) return { ...report, skipped: 'disabled' };
    if (!(await takeForgeLease(this.deps.db, tenant, now, FORGE_LEASE_MS))) return { ...report, skipped: 'busy' };
    try {
      await this.run(tenant, settings, now, report);
      report.ran = true;
    } catch (err) {
      this.deps.log?.warn({ err, tenant }, 'forge tick failed');
      report.skipped = 'error';
      report.error = 'the tick failed; see the service log';
    } finally {
      report.tick_ms = Math.round(performance.now() - t0);
      await releaseForgeLease(this.deps.db, tenant, this.deps.catalog.clock(), report).catch(() => undefined);
    }
    return report;
  }

  private async run(tenant: string, settings: SkillsFactorySettings, now: Date, report: ForgeTickReport): Promise<void> {
    const f = settings.forge;
    const since = new Date(now.getTime() - f.freshness_window_days * 86_400_000);
    const rows = await forgeMemories(this.deps.db, tenant, since, now, FORGE_MEMORY_TYPES, FORGE_MAX_MEMORIES);
    report.memories_scanned = rows.length;
    const ents = await memoryEntities(this.deps.db, tenant, rows.map((r) => r.id));
    const items: ClusterItem[] = rows.map((r) => ({
      ...r, entities: [...new Set((ents.get(r.id) ?? []).map((e) => e.name.toLowerCase()))],
    }));
    const params = this.deps.clusterParams ?? DEFAULT_CLUSTER_PARAMS;
    const clusters = clusterMemories(items, { ...params, background: params.background ?? (items.length ? await this.backgroundVector() : null) });
    report.clusters = clusters.length;
    const existing = await forgeSkills(this.deps.db, tenant);
    const claimed = new Set<string>();

    for (const cluster of clusters) {
      const size = cluster.members.length;
      const agents = new Set(cluster.members.map((m) => m.agent_id)).size;
      if (size < f.min_cluster_size) { report.below_thresholds.volume++; continue; }
      if (agents < f.min_distinct_agents) { report.below_thresholds.diversity++; continue; }
      const features = clusterFeatures(cluster);
      const ids = new Set(cluster.members.map((m) => m.id));
      const match = existing.find((s) => s.data.fingerprint === features.fingerprint)
        ?? existing.find((s) => overlap(ids, s.data.cites) >= SAME_SKILL_OVERLAP);
      const outcome = (status: ForgeSkillOutcome['status'], slug: string, failed: GateName[] = []) =>
        report.skills.push({ slug, status, cluster_size: size, distinct_agents: agents, failed_gates: failed });

      if (match) {
        if (claimed.has(match.doc_id)) { report.unchanged++; continue; }
        claimed.add(match.doc_id);
        const status = String(match.data.status);
        if (status === 'rejected') {
          // A rejected skill stays out while its fingerprint cools off, then may come back.
          if (await liveRejection(this.deps.db, tenant, String(match.data.fingerprint), now)) {
            report.poisoned++;
            outcome('poisoned', match.doc_id, ['poison']);
            continue;
          }
        } else if (status !== 'candidate') {
          report.unchanged++;
          outcome('unchanged', match.doc_id);
          continue;
        }
      }

      const cites = cluster.members.map((m) => m.id).sort();
      if (match && String(match.data.status) === 'candidate' && sameSet(cites, match.data.cites)) {
        // The same memories as the held candidate: see whether its gates pass now (time moves,
        // rejections expire) before paying for another distillation.
        const recheck = runGates({ kind: 'create', origin: match.data.origin, scan: match.data.scan, poisoned: await this.poisoned(tenant, features.fingerprint, now), target: null, targetContentHash: undefined }, f, now);
        if (!recheck.passed) {
          report.unchanged++;
          outcome('unchanged', match.doc_id, recheck.gates.filter((g) => !g.passed).map((g) => g.gate));
          continue;
        }
      }

      const draft = await this.draft(features, settings, report);
      const slug = match?.doc_id ?? (await this.freeSlug(tenant, draft.slug, features.fingerprint, claimed));
      claimed.add(slug);
      const fields = checkSkillWrite(slug, { ...draft, slug, source: 'forge', kind: 'create' }, 'worker', { descriptionMaxBytes: settings.description_max_bytes });
      const origin = {
        agent_id: 'forge', run_id: `forge-${tenant}-${now.toISOString()}`,
        cluster_size: features.stats.cluster_size, distinct_agents: features.stats.distinct_agents, agents: features.stats.agents,
        window_start: features.stats.window_start, window_end: features.stats.window_end, distilled_at: now.toISOString(),
      };
      const scan = scanSkill({ ...fields, content: fields.content ?? '', evidence: draft.evidence }, now);
      const poisoned = await this.poisoned(tenant, features.fingerprint, now);
      const gates = runGates({ kind: 'create', origin, scan, poisoned, target: null, targetContentHash: undefined }, f, now);
      const status: SkillState = !gates.passed ? 'candidate'
        : settings.sentinel.auto_promote_clean && isClean(scan) ? 'active' : 'staged';
      const data = this.deps.catalog.stamp(fields, {
        status, scan, fingerprint: features.fingerprint, origin, gates: gates.gates, cites, evidence: draft.evidence,
        review: null,
      });
      await this.deps.catalog.put(tenant, match ? match.fleet_id : features.stats.fleet_id, slug, data);
      const failed = gates.gates.filter((g) => !g.passed).map((g) => g.gate);
      if (status === 'active') report.activated++;
      else if (status === 'staged') report.staged++;
      else report.held++;
      outcome(status, slug, failed);
    }
  }

  /** Whether the fingerprint is cooling off; undefined when the lookup failed (the poison gate then fails). */
  private async poisoned(tenant: string, fingerprint: string, now: Date): Promise<boolean | undefined> {
    try {
      return (await liveRejection(this.deps.db, tenant, fingerprint, now)) !== null;
    } catch {
      return undefined;
    }
  }

  private async draft(f: ClusterFeatures, settings: SkillsFactorySettings, report: ForgeTickReport): Promise<SkillDraft> {
    const template = templateDraft(f, settings.description_max_bytes);
    if (this.deps.llm) {
      try {
        const d = await llmDraft(this.deps.llm, f, settings.description_max_bytes, template.slug, this.deps.llmTimeoutMs);
        if (d) {
          report.distilled_by.llm++;
          return d;
        }
      } catch (err) {
        this.deps.log?.warn({ err }, 'forge: the language model did not distil a cluster; using the template');
      }
    }
    report.distilled_by.template++;
    return template;
  }

  /** The draft's slug, or a variant of it that no other skill of the tenant holds. */
  private async freeSlug(tenant: string, slug: string, fingerprint: string, claimed: Set<string>): Promise<string> {
    const suffix = fingerprint.slice(-6);
    const candidates = [slug, `${slug.slice(0, 90)}-${suffix}`, ...[2, 3, 4, 5].map((i) => `${slug.slice(0, 88)}-${suffix}-${i}`)];
    for (const s of candidates) {
      if (claimed.has(s)) continue;
      if (!(await readSkill(this.deps.db, tenant, s))) return s;
    }
    return `${slug.slice(0, 80)}-${Date.now().toString(36)}`;
  }
}

function overlap(ids: Set<string>, cites: unknown): number {
  if (!Array.isArray(cites) || !ids.size) return 0;
  let n = 0;
  for (const c of cites) if (ids.has(c)) n++;
  return n / ids.size;
}

function sameSet(a: string[], b: unknown): boolean {
  return Array.isArray(b) && b.length === a.length && [...b].sort().every((x, i) => x === a[i]);
}
