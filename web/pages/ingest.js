// Ingest: a file, a URL or pasted text → preview the facts → deselect some → commit as one run →
// see the run's memories → undo the run.
import { useState } from 'preact/hooks';
import { html, Field, ErrorBox, Spinner, useLoad, short, toast } from '../lib.js';
import { api } from '../api.js';

const RUNS = 'loci.ingestRuns';
const savedRuns = () => { try { return JSON.parse(sessionStorage.getItem(RUNS) ?? '[]'); } catch { return []; } };

function RunView({ tenant, run, onUndone }) {
  const [data, error, loading] = useLoad(() => api('GET', '/api/v1/memories', { query: { tenant_id: tenant, run_id: run.run_id, limit: 200, include_deleted: true } }), [run.run_id, run.undone]);
  const [busy, setBusy] = useState(false);
  const undo = async () => {
    setBusy(true);
    try {
      const r = await api('POST', `/api/v1/ingest/undo/${encodeURIComponent(run.run_id)}`, { query: { tenant_id: tenant } });
      toast(`Run undone: ${r.deleted} memories deleted.`);
      onUndone(r);
    } catch (err) { toast(`Undo failed: ${err.message}`); } finally { setBusy(false); }
  };
  const items = data?.items ?? [];
  const live = items.filter((m) => !m.deleted_at).length;
  return html`<section class="card run" aria-labelledby=${`run-${run.run_id}`}>
    <h2 id=${`run-${run.run_id}`}>Run <code>${run.run_id}</code></h2>
    <p>${run.memories_created} created, ${run.skipped_duplicates} duplicates skipped, ${run.errored} errored, ${run.ingest_ms} ms.
      ${loading ? '' : ` ${live} of ${items.length} memories live.`}</p>
    <${ErrorBox} error=${error} />
    ${loading && !data ? html`<${Spinner} />` : html`<ul class="run-memories">${items.map((m) => html`<li class=${m.deleted_at ? 'deleted' : ''}>
      <a href=${`#/memories?id=${m.id}`}>${short(m.content, 140)}</a> <small>${m.memory_type}${m.deleted_at ? ' · deleted' : ''}</small></li>`)}</ul>`}
    <button type="button" class="danger" disabled=${busy || live === 0} onClick=${undo}>Undo this run</button>
  </section>`;
}

export function IngestPage({ tenant, who }) {
  const [source, setSource] = useState('text');
  const [input, setInput] = useState({ text: '', url: '', focus: '', file: null });
  const [preview, setPreview] = useState(null);
  const [chosen, setChosen] = useState(new Set());
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [runs, setRuns] = useState(() => savedRuns().filter((r) => r.tenant === tenant));
  const keepRuns = (next) => {
    setRuns(next);
    sessionStorage.setItem(RUNS, JSON.stringify([...savedRuns().filter((r) => r.tenant !== tenant), ...next].slice(-20)));
  };

  const doPreview = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setPreview(null);
    try {
      let p;
      if (source === 'file') {
        if (!input.file) throw new Error('Choose a file first');
        const form = new FormData();
        form.append('tenant_id', tenant);
        form.append('include_content', 'true');
        if (input.focus) form.append('focus', input.focus);
        form.append('file', input.file, input.file.name);
        p = await api('POST', '/api/v1/ingest/file', { form });
        p.source_uri = input.file.name;
      } else {
        const body = { tenant_id: tenant, include_content: true, ...(input.focus ? { focus: input.focus } : {}) };
        if (source === 'url') body.url = input.url;
        else body.content = input.text;
        p = await api('POST', '/api/v1/ingest/preview', { body });
      }
      setPreview(p);
      setChosen(new Set(p.facts.map((_, i) => i)));
    } catch (err) { setError(err); } finally { setBusy(false); }
  };

  const commit = async () => {
    setBusy(true);
    setError(null);
    try {
      const facts = preview.facts.filter((_, i) => chosen.has(i)).map((f) => ({
        content: f.content, suggested_type: f.suggested_type, title: f.title, salience: f.salience, section: f.section,
        enriched_by: f.enriched_by, ...(f.source_uri ? { source_uri: f.source_uri } : {}),
      }));
      const body = { tenant_id: tenant, facts, doc_hash: preview.doc_hash };
      if (who.agent_id) body.agent_id = who.agent_id;
      if (preview.content) body.content = preview.content;
      if (preview.url) body.url = preview.url;
      if (preview.title) body.title = preview.title.slice(0, 500);
      if (preview.source_uri) body.source_uri = preview.source_uri;
      const r = await api('POST', '/api/v1/ingest/commit', { body });
      toast(`Committed: ${r.memories_created} memories in run ${r.run_id}.`);
      keepRuns([{ ...r, tenant }, ...runs.filter((x) => x.run_id !== r.run_id)]);
      setPreview(null);
    } catch (err) { setError(err); } finally { setBusy(false); }
  };

  const toggle = (i) => { const n = new Set(chosen); n.has(i) ? n.delete(i) : n.add(i); setChosen(n); };
  return html`<div class="page">
    <h1>Ingest</h1>
    <form class="card" onSubmit=${doPreview} aria-label="Source to ingest">
      <fieldset class="sources"><legend>Source</legend>
        ${[['text', 'Text'], ['url', 'URL'], ['file', 'File']].map(([v, l]) => html`<label class="radio"><input type="radio" name="source" value=${v} checked=${source === v} onChange=${() => setSource(v)} /> ${l}</label>`)}
      </fieldset>
      ${source === 'text' ? html`<${Field} label="Text to extract facts from"><textarea rows="8" required value=${input.text} onInput=${(e) => setInput({ ...input, text: e.target.value })} /></${Field}>` : null}
      ${source === 'url' ? html`<${Field} label="URL" hint="Fetched by the server; private and loopback addresses are refused."><input type="url" required value=${input.url} onInput=${(e) => setInput({ ...input, url: e.target.value })} placeholder="https://…" /></${Field}>` : null}
      ${source === 'file' ? html`<${Field} label="File" hint="md, txt, csv, html, pdf, docx, pptx, xlsx, epub, rtf or odt; at most 3 MB."><input type="file" required onChange=${(e) => setInput({ ...input, file: e.target.files[0] ?? null })} /></${Field}>` : null}
      <${Field} label="Focus (optional)" hint="Facts mentioning these terms rank higher."><input value=${input.focus} onInput=${(e) => setInput({ ...input, focus: e.target.value })} /></${Field}>
      <div class="actions"><button type="submit" disabled=${busy}>Preview facts</button>${busy ? html`<${Spinner} label="Working" />` : null}</div>
    </form>
    <${ErrorBox} error=${error} />
    ${preview ? html`<section class="card" aria-labelledby="preview-h">
      <h2 id="preview-h">Preview: ${preview.facts.length} facts</h2>
      <p class="muted">${preview.title ? `“${preview.title}” · ` : ''}${preview.format} · ${preview.content_length} characters · extracted by ${preview.extractor}. Nothing is stored until you commit.</p>
      <div class="actions"><button type="button" class="secondary" onClick=${() => setChosen(new Set(preview.facts.map((_, i) => i)))}>Select all</button>
        <button type="button" class="secondary" onClick=${() => setChosen(new Set())}>Select none</button></div>
      <ul class="facts">${preview.facts.map((f, i) => html`<li><label><input type="checkbox" checked=${chosen.has(i)} onChange=${() => toggle(i)} />
        <span><span class="fact-text">${f.content}</span> <small>${f.suggested_type} · salience ${f.salience.toFixed(2)}${f.section ? ` · ${f.section}` : ''}</small></span></label></li>`)}</ul>
      <div class="actions"><button type="button" disabled=${busy || chosen.size === 0} onClick=${commit}>Commit ${chosen.size} fact${chosen.size === 1 ? '' : 's'}</button></div>
    </section>` : null}
    ${runs.length ? html`<h2>Runs of this session</h2>` : null}
    ${runs.map((r) => html`<${RunView} key=${r.run_id} tenant=${tenant} run=${r} onUndone=${() => keepRuns(runs.map((x) => (x.run_id === r.run_id ? { ...x, undone: Date.now() } : x)))} />`)}
  </div>`;
}
