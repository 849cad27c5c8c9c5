// Ingest end to end over HTTP for a large PDF and a large DOCX (2 MB each by default), both
// generated here: upload → preview (extraction + facts), preview of the extracted text (facts
// only), commit (memory writes + parent document), undo. Extraction alone is also timed
// in-process. Then the quality side (ingest-quality.ts): facts and dropped units of real
// documents, memory-type accuracy on the development set, enrichment cost per memory.
// Writes bench/results/ingest.json.
// Run: npm run bench ingest   (BENCH_INGEST_MB, BENCH_INGEST_RUNS, BENCH_INGEST_MAX_FACTS scale it;
// BENCH_INGEST_QUALITY_ONLY=1 skips the throughput part, BENCH_ENRICH_CENTROIDS=0 the centroid comparison)
import { randomBytes } from 'node:crypto';
import { makePdf, zip } from '../test/fixtures/make-fixtures.js';
import { extractText } from '../src/providers/extract/index.js';
import { percentiles, reportResult, startBenchServer, type BenchServer } from './lib.js';
import { runIngestQuality } from './ingest-quality.js';

const MB = Number(process.env.BENCH_INGEST_MB ?? 2);
const RUNS = Number(process.env.BENCH_INGEST_RUNS ?? 3);
const MAX_FACTS = Number(process.env.BENCH_INGEST_MAX_FACTS ?? 200);

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const TEAMS = ['platform', 'billing', 'search', 'mobile', 'design', 'support', 'security', 'data', 'growth', 'infra'];
const CITIES = ['Lisbon', 'Dublin', 'Berlin', 'Nairobi', 'Osaka', 'Toronto', 'Lima', 'Warsaw', 'Austin', 'Hanoi'];
const ACTS = ['shipped release', 'migrated cluster', 'closed incident', 'reviewed contract', 'hired engineer', 'opened office'];

/** Varied report sentences: each one a distinct fact, so deduplication keeps them apart. */
function sentence(i: number): string {
  const team = TEAMS[i % TEAMS.length];
  const city = CITIES[Math.floor(i / 7) % CITIES.length];
  const act = ACTS[Math.floor(i / 3) % ACTS.length];
  return `In week ${1 + (i % 52)} the ${team} team in ${city} ${act} ${100 + i} after ${2 + (i % 17)} days, costing ${1000 + ((i * 37) % 9000)} euros.`;
}

/** A PDF of about `bytes` of uncompressed text content. */
function bigPdf(bytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes * 0.97; i++) {
    const s = sentence(i);
    lines.push(s);
    size += s.length + 10; // the operators around each line
  }
  return makePdf(lines, { title: 'Operations report' });
}

/**
 * A DOCX of about `bytes`: text compresses well, so (as in real reports) most of the size is an
 * embedded image; the text is kept well under the 3 MB extracted-text cap.
 */
function bigDocx(bytes: number): Buffer {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const paras: string[] = [];
  for (let i = 0; paras.length < 6000; i++) paras.push(`<w:p><w:r><w:t xml:space="preserve">${sentence(i + 50_000)}</w:t></w:r></w:p>`);
  const documentXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}"><w:body>${paras.join('')}</w:body></w:document>`;
  const entries = [
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', data: documentXml },
  ];
  const textOnly = zip(entries).length;
  const image = randomBytes(Math.max(0, bytes - textOnly - 200));
  return zip([...entries, { name: 'word/media/image1.png', data: image, store: true }]);
}

async function uploadPreview(srv: BenchServer, data: Buffer, type: string, filename: string): Promise<any> {
  const form = new FormData();
  form.set('tenant_id', 'default');
  form.set('include_content', 'true');
  form.set('max_facts', String(MAX_FACTS));
  form.set('file', new Blob([new Uint8Array(data)], { type }), filename);
  const res = await fetch(`${srv.url}/api/v1/ingest/file`, { method: 'POST', headers: { 'x-api-key': srv.key }, body: form });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`file preview answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await fn();
  return [out, performance.now() - t];
}

async function benchFile(srv: BenchServer, label: string, data: Buffer, type: string, filename: string) {
  const phases: Record<string, number[]> = { extract_in_process: [], upload_preview: [], text_preview: [], commit: [], undo: [], end_to_end: [] };
  let last: Record<string, unknown> = {};
  for (let run = 0; run < RUNS; run++) {
    const [extracted, extractMs] = await timed(() => extractText(data, type, filename, { maxChars: 3 * 1024 * 1024 + 1 }));
    phases.extract_in_process.push(extractMs);

    const [preview, previewMs] = await timed(() => uploadPreview(srv, data, type, filename));
    phases.upload_preview.push(previewMs);

    const [textPreview, textMs] = await timed(() =>
      srv.call('POST', '/api/v1/ingest/preview', { tenant_id: 'default', content: preview.content, max_facts: MAX_FACTS }));
    if (textPreview.status !== 200) throw new Error(`text preview answered ${textPreview.status}`);
    phases.text_preview.push(textMs);

    const [commit, commitMs] = await timed(() => srv.call('POST', '/api/v1/ingest/commit', {
      tenant_id: 'default', facts: preview.facts, content: preview.content, doc_hash: preview.doc_hash, title: preview.title ?? undefined,
    }));
    if (commit.status !== 200 || commit.body.errored > 0) throw new Error(`commit answered ${commit.status}: ${JSON.stringify(commit.body).slice(0, 300)}`);
    phases.commit.push(commitMs);
    phases.end_to_end.push(previewMs + commitMs);

    const [undo, undoMs] = await timed(() => srv.call('POST', `/api/v1/ingest/undo/${commit.body.run_id}?tenant_id=default`));
    if (undo.status !== 200 || undo.body.deleted !== commit.body.memories_created) throw new Error(`undo answered ${undo.status}`);
    phases.undo.push(undoMs);

    last = {
      file_bytes: data.length,
      extracted_chars: extracted.text.length,
      sections: preview.sections,
      facts: preview.facts.length,
      memories_created: commit.body.memories_created,
      skipped_duplicates: commit.body.skipped_duplicates,
      commit_ms_server: commit.body.ingest_ms,
      extractor: preview.extractor,
    };
    console.log(`${label} run ${run + 1}/${RUNS}: extract ${extractMs.toFixed(0)} ms, upload+preview ${previewMs.toFixed(0)} ms, ` +
      `text preview ${textMs.toFixed(0)} ms, commit ${commitMs.toFixed(0)} ms (${commit.body.memories_created} memories), undo ${undoMs.toFixed(0)} ms`);
  }
  return { ...last, phases: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, percentiles(v)])) };
}

export async function runIngestBench() {
  const bytes = Math.round(MB * 1024 * 1024);
  const pdf = bigPdf(bytes);
  const docx = bigDocx(bytes);
  const srv = await startBenchServer();
  try {
    // Warm up the embedder and the extraction worker path.
    await uploadPreview(srv, makePdf(['A short warm-up document for the benchmark.']), 'application/pdf', 'warm.pdf');
    const qualityOnly = process.env.BENCH_INGEST_QUALITY_ONLY === '1';
    const result = {
      config: { target_mb: MB, runs: RUNS, max_facts: MAX_FACTS },
      ...(qualityOnly ? {} : {
        pdf: await benchFile(srv, 'pdf', pdf, 'application/pdf', 'report.pdf'),
        docx: await benchFile(srv, 'docx', docx, DOCX_TYPE, 'report.docx'),
      }),
      quality: await runIngestQuality(srv),
      note: 'Timings over HTTP on 127.0.0.1 with the embedded defaults (PGlite, USE-Lite); phases are sequential per run.',
    };
    return reportResult('ingest', result);
  } finally {
    await srv.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runIngestBench();
