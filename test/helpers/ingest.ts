// Shared steps of the ingest tests: row counts, multipart uploads and the preview → commit round trip.
import type { TestApp } from './app.js';

/** Non-deleted memories and all documents of every tenant: what "nothing written" is checked against. */
export async function storedCounts(t: TestApp): Promise<{ memories: number; documents: number }> {
  const db = t.services.db;
  const m = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories WHERE deleted_at IS NULL');
  const d = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents');
  return { memories: Number(m.rows[0].n), documents: Number(d.rows[0].n) };
}

export interface Upload {
  data: Buffer | string;
  type: string;
  filename?: string;
}

/** POST /api/v1/ingest/file as multipart/form-data. */
export async function upload(t: TestApp, file: Upload | null, fields: Record<string, string> = {}, key: string | null = t.adminKey) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) {
    const bytes = typeof file.data === 'string' ? Buffer.from(file.data, 'utf8') : file.data;
    form.set('file', new Blob([new Uint8Array(bytes)], { type: file.type }), file.filename ?? 'upload');
  }
  const res = await fetch(`${t.url}/api/v1/ingest/file`, { method: 'POST', headers: key ? { 'x-api-key': key } : {}, body: form });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body };
}

/** Commits every previewed fact with the extracted text as the run's source. */
export async function commitPreview(t: TestApp, preview: { facts: unknown[]; doc_hash: string; content?: string }, extra: Record<string, unknown> = {}) {
  return t.api('POST', '/api/v1/ingest/commit', {
    body: { tenant_id: 'default', facts: preview.facts, doc_hash: preview.doc_hash, ...(preview.content !== undefined ? { content: preview.content } : {}), ...extra },
  });
}

/** Contents of the live memories of a run, in the default tenant. */
export async function runContents(t: TestApp, runId: string): Promise<string[]> {
  const r = await t.api('GET', `/api/v1/memories?tenant_id=default&run_id=${encodeURIComponent(runId)}&limit=500`);
  if (r.status !== 200) throw new Error(`list answered ${r.status}`);
  return r.body.items.map((m: { content: string }) => m.content);
}
