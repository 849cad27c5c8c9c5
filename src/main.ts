#!/usr/bin/env node
// CLI entry: `loci serve | mcp | keys | reembed | skills | memories | ingest`.
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from './config.js';
import { PACKAGE_VERSION } from './version.js';
import { registerSkillsCommands } from './cli/skills.js';
import { registerMemoryCommands } from './cli/memories.js';
import { registerIngestCommand } from './cli/ingest.js';
import { LOCAL_OPERATOR } from './core/caller.js';

const program = new Command();
program.name('loci').description('Loci: a memory service for AI agents').version(PACKAGE_VERSION);

function trust(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 3) throw new InvalidArgumentError('trust must be 0, 1, 2 or 3');
  return n;
}

program.command('serve').description('serve the HTTP API (default host 127.0.0.1, port 8080)').action(async () => {
  const { serve } = await import('./server.js');
  await serve(loadConfig());
});

const keys = program.command('keys').description('mint, list and revoke API keys');

keys.command('create')
  .requiredOption('--tenant <id>', 'tenant the key belongs to')
  .option('--agent <id>', 'bind the key to one agent (agent-scoped key)')
  .option('--fleet <id>', 'bind the key to a fleet (trust 1 stays in it, trust 2 crosses fleets)')
  .option('--trust <level>', 'trust level 0-3 (3 = admin)', trust, 1)
  .option('--name <name>', 'a label for the key')
  .option('--readable-tenants <ids>', 'comma-separated tenants this key may also read')
  .action(async (o) => {
    await withKeys(async (ks) => {
      const k = await ks.create(LOCAL_OPERATOR, {
        tenant_id: o.tenant, agent_id: o.agent ?? null, fleet_id: o.fleet ?? null, trust_level: o.trust, name: o.name ?? null,
        readable_tenants: o.readableTenants ? String(o.readableTenants).split(',').map((t: string) => t.trim()).filter(Boolean) : [],
      });
      process.stdout.write(`${JSON.stringify(k, null, 2)}\n\nStore the key now: it is not shown again.\n`);
    });
  });

keys.command('list').option('--tenant <id>', 'only this tenant').action(async (o) => {
  await withKeys(async (ks) => {
    for (const k of await ks.list(LOCAL_OPERATOR, o.tenant)) {
      process.stdout.write(`${k.id}  ${k.prefix}…  tenant=${k.tenant_id}  agent=${k.agent_id ?? '-'}  fleet=${k.fleet_id ?? '-'}  trust=${k.trust_level}  ${k.revoked_at ? 'revoked' : 'active'}  ${k.name ?? ''}\n`);
    }
  });
});

keys.command('revoke').argument('<id>', 'key id').action(async (id) => {
  await withKeys(async (ks) => {
    const ok = await ks.revoke(LOCAL_OPERATOR, id).then(() => true, (err) => {
      if (err?.status === 404) return false;
      throw err;
    });
    process.stdout.write(ok ? `revoked ${id}\n` : `no active key ${id}\n`);
    if (!ok) process.exitCode = 1;
  });
});

program.command('mcp')
  .description('serve MCP on stdin/stdout: proxies to LOCI_URL with LOCI_API_KEY, else opens the data dir itself')
  .action(async () => {
    const { runStdio, McpStartError } = await import('./mcp/stdio.js');
    await runStdio(loadConfig()).catch((err) => {
      process.stderr.write(`loci mcp: ${err instanceof McpStartError ? err.message : err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
  });

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer >= 1');
  return n;
}

program.command('reembed')
  .description('re-embed every memory and document with the configured embedder (stop the server first); resumable')
  .option('--batch-size <n>', 'texts embedded and committed together', positiveInt, 64)
  .action(async (o) => {
    const { runReembed } = await import('./cli/reembed.js');
    await runReembed(loadConfig(), { batchSize: o.batchSize });
  });

/** Opens storage only (no model, no bus) for key administration. */
async function withKeys(fn: (ks: import('./core/keys.js').KeyService) => Promise<void>) {
  const config = loadConfig();
  const { openDb } = await import('./services.js');
  const { migrate } = await import('./store/migrate.js');
  const { KeyService } = await import('./core/keys.js');
  const { storedEmbeddingDim } = await import('./store/meta.js');
  const db = openDb(config);
  try {
    // Key tables do not depend on the embedder; a fresh store takes the default dimension.
    await migrate(db, { embeddingDim: (await storedEmbeddingDim(db)) ?? 512 });
    await fn(new KeyService(db));
  } finally {
    await db.close();
  }
}

registerSkillsCommands(program);
registerMemoryCommands(program);
registerIngestCommand(program);

program.parseAsync(process.argv).catch((err) => {
  process.stderr.write(`loci: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
