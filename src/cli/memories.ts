// `loci memories add | search | recall | list | export | import`: people's commands on a running
// Loci, through @loci/client. Results on stdout (--json for scripts), progress on stderr.
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import type { LociClient, Memory } from '@loci/client';
import { ProgressBar } from './progress.js';
import { clientFor, memoryLine, out, printJson, remoteOptions, run, type RemoteOptions } from './remote.js';
import { ImportLineError, parseJsonl, toImportItem, type ImportItem } from './jsonl.js';

function count(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer >= 1');
  return n;
}

function weight(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('must be between 0 and 1');
  return n;
}

function jsonObject(v: string): Record<string, unknown> {
  try {
    const o = JSON.parse(v);
    if (typeof o === 'object' && o !== null && !Array.isArray(o)) return o;
  } catch { /* below */ }
  throw new InvalidArgumentError('must be a JSON object');
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function registerMemoryCommands(program: Command) {
  const memories = program.command('memories').description('add, search, list, export and import memories on a running Loci (LOCI_URL, LOCI_API_KEY)');

  remoteOptions(memories.command('add').description('write one memory ("-" reads the content from stdin)'))
    .argument('<content...>', 'the memory text')
    .option('--type <type>', 'memory type (fact, episode, decision, preference, task, …; default: inferred)')
    .option('--title <title>', 'a short title (default: derived)')
    .option('--weight <w>', 'importance 0-1', weight)
    .option('--fleet <id>', 'fleet')
    .option('--visibility <v>', 'scope_agent, scope_team or scope_org')
    .option('--metadata <json>', 'a JSON object', jsonObject)
    .action((words: string[], o: RemoteOptions & Record<string, any>) => run(async () => {
      const content = words.length === 1 && words[0] === '-' ? (await readStdin()).trim() : words.join(' ');
      const m = await clientFor(o).memories.create({
        content, memory_type: o.type, title: o.title, weight: o.weight, fleet_id: o.fleet, visibility: o.visibility, metadata: o.metadata,
      } as never);
      if (o.json) return printJson(m);
      out(`added ${m.id} (${m.memory_type}, weight ${m.weight})`);
      for (const s of m.superseded_by ?? []) out(`  supersedes ${s.old_memory_id} (now ${s.old_status}): ${s.old_content_preview}`);
    }));

  remoteOptions(memories.command('search').description('hybrid search; best matches first'))
    .argument('<query...>', 'what to look for')
    .option('--limit <n>', 'most results', count, 10)
    .option('--type <type>', 'only this memory type')
    .option('--fleet <id>', 'only this fleet')
    .action((words: string[], o: RemoteOptions & Record<string, any>) => run(async () => {
      const r = await clientFor(o).search({ query: words.join(' '), top_k: o.limit, memory_type: o.type, fleet_id: o.fleet } as never);
      if (o.json) return printJson(r);
      if (!r.items.length) return out('no matches');
      for (const m of r.items) out(`${m.similarity.toFixed(3)}  ${memoryLine(m)}`);
    }));

  remoteOptions(memories.command('recall').description('a context summary for a question, citing the memories it used'))
    .argument('<query...>', 'the question')
    .option('--limit <n>', 'most memories used', count, 10)
    .option('--fleet <id>', 'only this fleet')
    .action((words: string[], o: RemoteOptions & Record<string, any>) => run(async () => {
      const r = await clientFor(o).recall({ query: words.join(' '), top_k: o.limit, fleet_id: o.fleet } as never);
      if (o.json) return printJson(r);
      out(r.summary || '(nothing recalled)');
      if (r.memories.length) out('');
      for (const m of r.memories) out(memoryLine(m));
    }));

  remoteOptions(memories.command('list').description('newest first; --json prints one JSON object per line'))
    .option('--limit <n>', 'most memories listed', count, 50)
    .option('--all', 'every memory (no limit)')
    .option('--type <type>', 'only this memory type')
    .option('--status <status>', 'only this status')
    .option('--fleet <id>', 'only this fleet')
    .option('--written-by <agent>', 'only memories this agent wrote')
    .option('--include-deleted', 'soft-deleted memories too')
    .action((o: RemoteOptions & Record<string, any>) => run(async () => {
      const c = clientFor(o);
      const limit = o.all ? Infinity : o.limit;
      let n = 0;
      for await (const m of c.memories.all({
        memory_type: o.type, status: o.status, fleet_id: o.fleet, filter_agent_id: o.writtenBy, include_deleted: !!o.includeDeleted,
        limit: Math.min(500, Number.isFinite(limit) ? limit : 500),
      } as never)) {
        out(o.json ? JSON.stringify(m) : memoryLine(m));
        if (++n >= limit) break;
      }
      if (!o.json && n === 0) out('no memories');
    }));

  remoteOptions(memories.command('export').description("every memory of the tenant as JSONL (admin keys: every agent's private ones too)"))
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .option('--include-deleted', 'soft-deleted memories too (imported as deleted)')
    .action((o: RemoteOptions & { out?: string; includeDeleted?: boolean }) => run(() => exportMemories(clientFor(o), o)));

  remoteOptions(memories.command('import').description('write memories from JSONL (as export writes it); a rerun resumes and skips what landed'))
    .argument('<file>', 'JSONL file, one memory per line (at least `content`)')
    .option('--checkpoint <file>', 'where progress is kept (default <file>.import-state.json)')
    .action((file: string, o: RemoteOptions & { checkpoint?: string }) => run(() => importMemories(clientFor(o), file, o)));
}

/** The memories an export reads: an admin key lists every visibility of the tenant, others what they may see. */
async function exportSource(c: LociClient, includeDeleted: boolean): Promise<{ rows: AsyncIterable<Memory>; total: number }> {
  const who = await c.system.whoami();
  const tenant_id = await c.tenant();
  const stats = who.trust_level >= 3
    ? await c.admin.memoryStats({ tenant_id, include_deleted: includeDeleted })
    : await c.memories.stats({ include_deleted: includeDeleted });
  const total = includeDeleted ? (stats.total_including_deleted ?? stats.total) : stats.total;
  const rows = who.trust_level >= 3
    ? c.admin.allMemories({ tenant_id, include_deleted: includeDeleted, limit: 500 })
    : c.memories.all({ include_deleted: includeDeleted, limit: 500 });
  return { rows, total };
}

async function exportMemories(c: LociClient, o: RemoteOptions & { out?: string; includeDeleted?: boolean }): Promise<number> {
  const { rows, total } = await exportSource(c, !!o.includeDeleted);
  const sink = o.out ? createWriteStream(o.out) : process.stdout;
  const bar = new ProgressBar(process.stderr, 'export');
  const write = (s: string) => new Promise<void>((resolve) => (sink.write(s) ? resolve() : sink.once('drain', resolve)));
  let n = 0;
  // Oldest first: an import then writes them in the order they were written.
  const all: Memory[] = [];
  for await (const m of rows) {
    all.push(m);
    bar.update(all.length, Math.max(total, all.length));
  }
  for (const m of all.reverse()) {
    await write(`${JSON.stringify(m)}\n`);
    n++;
  }
  bar.finish();
  if (o.out) await new Promise<void>((resolve, reject) => (sink as ReturnType<typeof createWriteStream>).end((err?: Error | null) => (err ? reject(err) : resolve())));
  process.stderr.write(`exported ${n} memories${o.out ? ` to ${o.out}` : ''}\n`);
  return 0;
}

interface Checkpoint {
  prefix: string;
  chunks_done: number;
  /** Per input line written so far: the stored memory's id (null when the item failed). */
  ids: (string | null)[];
}

function saveCheckpoint(path: string, cp: Checkpoint) {
  writeFileSync(`${path}.tmp`, JSON.stringify(cp));
  renameSync(`${path}.tmp`, path);
}

async function importMemories(c: LociClient, file: string, o: RemoteOptions & { checkpoint?: string }): Promise<number> {
  const text = readFileSync(file, 'utf8');
  let items: ImportItem[];
  try {
    items = parseJsonl(text).map(({ line, value }) => toImportItem(value, line));
  } catch (err) {
    if (err instanceof ImportLineError) {
      process.stderr.write(`loci: ${file}: ${err.message}; nothing imported\n`);
      return 1;
    }
    throw err;
  }
  const tenant = await c.tenant();
  // Attempt ids name each chunk by the file and the tenant: a rerun sends the same ones, so the server skips what landed.
  const prefix = `import-${createHash('sha256').update(`${tenant}\n${text}`).digest('hex').slice(0, 24)}`;
  const cpPath = o.checkpoint ?? `${file}.import-state.json`;
  let cp: Checkpoint = { prefix, chunks_done: 0, ids: [] };
  if (existsSync(cpPath)) {
    const saved = JSON.parse(readFileSync(cpPath, 'utf8')) as Checkpoint;
    if (saved.prefix === prefix) {
      cp = saved;
      process.stderr.write(`resuming: ${cp.ids.length} of ${items.length} already written\n`);
    }
  }
  const bar = new ProgressBar(process.stderr, 'import');
  bar.update(cp.ids.length, items.length);
  const result = await c.memories.writeMany(items.map((i) => i.item), {
    attemptPrefix: prefix,
    skipChunks: cp.chunks_done,
    onChunk: (done, total, r, n) => {
      for (const item of r.results) cp.ids[n * 100 + item.index] = item.id ?? item.duplicate_of ?? null;
      cp.chunks_done = n + 1;
      saveCheckpoint(cpPath, cp);
      bar.update(done, total);
    },
  });
  bar.finish();

  const failed = result.results
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r && r.status === 'error');
  for (const { r, i } of failed.slice(0, 20)) process.stderr.write(`line item ${i + 1}: ${r.error?.message ?? 'error'}\n`);
  if (failed.length > 20) process.stderr.write(`… and ${failed.length - 20} more\n`);

  const fixed = await restoreStatuses(c, items, cp.ids);
  rmSync(cpPath, { force: true });
  const summary = { read: items.length, created: result.created, duplicates: result.duplicates, errors: failed.length, statuses_restored: fixed };
  if (o.json) printJson(summary);
  else process.stderr.write(`imported ${items.length} lines: ${result.created} created, ${result.duplicates} already there, ${failed.length} failed, ${fixed} statuses restored\n`);
  return failed.length ? 1 : 0;
}

/**
 * Sets each written memory to the status its record had: writes may only carry some statuses, and
 * the contradiction check on write may mark an imported row outdated that the source had active.
 */
async function restoreStatuses(c: LociClient, items: ImportItem[], ids: (string | null)[]): Promise<number> {
  const want = new Map<string, string>();
  items.forEach((it, i) => {
    // A line without a status leaves the row as the server judged it.
    const id = ids[i];
    const status = it.then ?? (it.item.status as string | undefined);
    if (id && status) want.set(id, status);
  });
  if (!want.size) return 0;
  const have = new Map<string, { status: string; deleted: boolean }>();
  const who = await c.system.whoami();
  const tenant_id = await c.tenant();
  const rows = who.trust_level >= 3
    ? c.admin.allMemories({ tenant_id, include_deleted: true, limit: 500 })
    : c.memories.all({ include_deleted: true, limit: 500 });
  for await (const m of rows) if (want.has(m.id)) have.set(m.id, { status: m.status, deleted: !!m.deleted_at });
  let fixed = 0;
  for (const [id, status] of want) {
    const h = have.get(id);
    if (!h) continue;
    const current = h.deleted ? 'deleted' : h.status;
    if (current === status) continue;
    await c.memories.setStatus(id, status as never);
    fixed++;
  }
  return fixed;
}
