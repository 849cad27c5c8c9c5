// `loci ingest <file|url>`: extract facts on the server, show them, write them once confirmed.
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { createInterface } from 'node:readline';
import { InvalidArgumentError, type Command } from 'commander';
import { clientFor, out, printJson, remoteOptions, run, type RemoteOptions } from './remote.js';

/** Content types by extension: the server picks its reader by the part's type. */
const TYPES: Record<string, string> = {
  '.md': 'text/markdown', '.markdown': 'text/markdown', '.txt': 'text/plain', '.csv': 'text/csv', '.html': 'text/html',
  '.htm': 'text/html', '.pdf': 'application/pdf', '.rtf': 'application/rtf', '.epub': 'application/epub+zip',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.odt': 'application/vnd.oasis.opendocument.text',
};

export const contentTypeOf = (file: string) => TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

function count(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('must be an integer from 1 to 1000');
  return n;
}

/** Asks on stderr and reads one line from stdin (a terminal or a pipe); no answer is no. */
async function confirm(question: string): Promise<boolean> {
  process.stderr.write(question);
  const rl = createInterface({ input: process.stdin });
  const answer = await new Promise<string>((resolve) => {
    rl.once('line', resolve);
    rl.once('close', () => resolve(''));
  });
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}

export function registerIngestCommand(program: Command) {
  remoteOptions(program.command('ingest').description('extract facts from a file or URL, preview them, and write them once confirmed'))
    .argument('<source>', 'a file (md, txt, csv, html, pdf, docx, pptx, xlsx, epub, rtf, odt) or an http(s) URL')
    .option('-y, --yes', 'write without asking')
    .option('--dry-run', 'preview only; write nothing')
    .option('--focus <terms>', 'terms you care about: facts mentioning them rank higher')
    .option('--max-facts <n>', 'most facts kept (default 200)', count)
    .option('--fleet <id>', 'fleet of the written memories')
    .option('--show <n>', 'facts shown in the preview', count, 20)
    .action((source: string, o: RemoteOptions & Record<string, any>) => run(async () => {
      const c = clientFor(o);
      const isUrl = /^https?:\/\//i.test(source);
      const fields = { ...(o.focus ? { focus: o.focus } : {}), ...(o.maxFacts ? { max_facts: o.maxFacts } : {}) };
      const preview = isUrl
        ? await c.ingest.preview({ url: source, ...fields })
        : await c.ingest.file(new Blob([readFileSync(source)], { type: contentTypeOf(source) }), basename(source), {
          ...fields, source_uri: basename(source),
        });
      if (o.json && (o.dryRun || !o.yes)) return printJson(preview);
      const facts = preview.facts;
      if (!o.json) {
        process.stderr.write(`${preview.title ?? basename(source)} (${preview.format}, ${preview.content_length} characters): ${facts.length} facts\n`);
        for (const f of facts.slice(0, o.show)) process.stderr.write(`  [${f.suggested_type}] ${f.content.length > 110 ? `${f.content.slice(0, 109)}…` : f.content}\n`);
        if (facts.length > o.show) process.stderr.write(`  … and ${facts.length - o.show} more\n`);
      }
      if (!facts.length) {
        if (o.json) printJson(preview);
        else process.stderr.write('nothing new to write\n');
        return 0;
      }
      if (o.dryRun) return 0;
      if (!o.yes && !(await confirm(`Write ${facts.length} memories? [y/N] `))) {
        process.stderr.write('nothing written\n');
        return 0;
      }
      const r = await c.ingest.commit({
        facts, doc_hash: preview.doc_hash, fleet_id: o.fleet,
        ...(isUrl ? { url: preview.url ?? source } : { source_uri: basename(source) }),
        ...(preview.title ? { title: preview.title.slice(0, 500) } : {}),
      } as never);
      if (o.json) return printJson(r);
      out(`wrote ${r.memories_created} memories (run ${r.run_id}, undone by POST /api/v1/ingest/undo/${r.run_id}); ${r.skipped_duplicates} already stored, ${r.errored} failed`);
      for (const e of r.errors) process.stderr.write(`  fact ${e.index + 1}: ${e.detail}\n`);
      return r.errored ? 1 : 0;
    }));
}
