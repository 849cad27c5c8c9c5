// `loci skills sync | forge`: deliver active skills to agent harnesses, and run a Forge tick.
import type { Command } from 'commander';
import type { Config } from '../config.js';
import { loadConfig } from '../config.js';
import { fetchInstallable, parseTargets, syncAll, DEFAULT_SETTINGS_KEY } from './skills-sync.js';

/** Base URL of the local server from the configuration (LOCI_URL wins). */
const serverUrl = (env: NodeJS.ProcessEnv, config: Pick<Config, 'host' | 'port'>) =>
  env.LOCI_URL || `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;

export async function runSkillsSync(o: { url?: string; key?: string; tenant?: string; fleet?: string }, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const targets = parseTargets(env.LOCI_SKILL_TARGETS);
  const url = o.url ?? serverUrl(env, loadConfig(env));
  const skills = await fetchInstallable(url, o.key ?? env.LOCI_API_KEY, {
    ...(o.tenant ? { tenant_id: o.tenant } : {}), ...(o.fleet ? { fleet_id: o.fleet } : {}),
  });
  const reports = syncAll(skills, {
    targets, settingsPath: env.LOCI_HARNESS_SETTINGS || undefined, settingsKey: env.LOCI_HARNESS_SETTINGS_KEY || DEFAULT_SETTINGS_KEY,
  });
  process.stdout.write(`${JSON.stringify({ skills: skills.length, targets: reports }, null, 2)}\n`);
  return reports.some((r) => r.error) ? 1 : 0;
}

/** One Forge tick for every opted-in tenant: over HTTP when a server URL is given, else in this process. */
export async function runSkillsForge(o: { url?: string; key?: string }, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let report: unknown;
  if (o.url) {
    const key = o.key ?? env.LOCI_API_KEY;
    const res = await fetch(`${o.url.replace(/\/+$/, '')}/api/v1/admin/lifecycle/fanout/forge-distill`, {
      method: 'POST', headers: key ? { 'x-api-key': key } : {},
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${res.status} from the server: ${text.slice(0, 300)}`);
    report = JSON.parse(text);
  } else {
    const { createServices } = await import('../services.js');
    const { LOCAL_OPERATOR } = await import('../core/caller.js');
    const s = await createServices(loadConfig(env));
    try {
      report = await s.skills.forge.fanout(LOCAL_OPERATOR);
    } finally {
      await s.close();
    }
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return 0;
}

export function registerSkillsCommands(program: Command): void {
  const skills = program.command('skills').description('deliver skills to agent harnesses and run the Forge');
  skills.command('sync')
    .description('write every active skill to the directories in LOCI_SKILL_TARGETS as <dir>/<slug>/SKILL.md')
    .option('--url <url>', 'the Loci server (default LOCI_URL, else LOCI_HOST:LOCI_PORT)')
    .option('--key <key>', 'API key (default LOCI_API_KEY)')
    .option('--tenant <id>', 'tenant (default: the key\'s)')
    .option('--fleet <id>', 'also the skills of this fleet')
    .action(async (o) => {
      process.exitCode = await runSkillsSync(o);
    });
  skills.command('forge')
    .description('run one Forge tick for every tenant with the skills factory on (in this process, or on --url)')
    .option('--url <url>', 'ask this running server to run the tick instead (admin key)')
    .option('--key <key>', 'admin API key for --url (default LOCI_API_KEY)')
    .action(async (o) => {
      process.exitCode = await runSkillsForge(o);
    });
}
