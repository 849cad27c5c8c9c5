// Memories: write, list (spec 4.2 filters and sorts, cursor paging), search / recall with
// diagnostics, detail (every field, entities, supersedes chain, contradictions), edit, delete with undo.
import { useEffect, useState } from 'preact/hooks';
import { html, Field, ErrorBox, Spinner, useLoad, fmtDate, short, toast } from '../lib.js';
import { api } from '../api.js';

export const TYPES = ['fact', 'episode', 'decision', 'preference', 'task', 'intention', 'plan', 'commitment', 'action', 'cancellation', 'outcome', 'rule', 'insight'];
const WRITE_TYPES = TYPES.filter((t) => !['outcome', 'rule', 'insight'].includes(t));
export const STATUSES = ['active', 'pending', 'confirmed', 'cancelled', 'outdated', 'conflicted', 'archived'];
const SET_STATUSES = ['active', 'pending', 'confirmed', 'cancelled', 'archived', 'outdated', 'conflicted'];
const VISIBILITIES = ['scope_agent', 'scope_team', 'scope_org'];
const SORTS = ['created_at', 'weight', 'memory_type', 'agent_id', 'status', 'recall_count', 'fleet_id', 'expires_at', 'deleted_at'];
const UNDO_MS = 8000;

const Select = ({ id, value, onChange, options, blank }) => html`<select id=${id} value=${value} onChange=${(e) => onChange(e.target.value)}>
  ${blank !== undefined ? html`<option value="">${blank}</option>` : null}
  ${options.map((o) => html`<option value=${o}>${o}</option>`)}</select>`;

/** Deletes wait UNDO_MS so Undo can cancel them; leaving the page sends the pending ones at once. */
const pendingDeletes = new Map();
addEventListener('pagehide', () => { for (const p of pendingDeletes.values()) p.flush(); });
function scheduleDelete(tenant, id, onDone, onUndo) {
  let sent = false;
  const send = (keepalive) => {
    if (sent) return;
    sent = true;
    pendingDeletes.delete(id);
    clearTimeout(timer);
    api('DELETE', `/api/v1/memories/${id}`, { query: { tenant_id: tenant }, keepalive }).then(onDone, (e) => toast(`Delete failed: ${e.message}`));
  };
  const timer = setTimeout(() => send(false), UNDO_MS);
  pendingDeletes.set(id, { flush: () => send(true) });
  toast('Memory deleted.', {
    label: 'Undo', ms: UNDO_MS - 200,
    run: () => { sent = true; clearTimeout(timer); pendingDeletes.delete(id); onUndo(); toast('Delete undone.'); },
  });
}

function WriteForm({ tenant, who, onWritten }) {
  const [f, setF] = useState({ content: '', memory_type: '', agent_id: who.agent_id ?? 'dashboard', visibility: 'scope_team', weight: '0.5', fleet_id: '' });
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const set = (k) => (v) => setF({ ...f, [k]: v });
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { tenant_id: tenant, agent_id: f.agent_id, content: f.content, visibility: f.visibility, weight: Number(f.weight) };
      if (f.memory_type) body.memory_type = f.memory_type;
      if (f.fleet_id) body.fleet_id = f.fleet_id;
      const m = await api('POST', '/api/v1/memories', { body });
      setF({ ...f, content: '' });
      toast(m.superseded_by?.length ? `Written; it supersedes ${m.superseded_by.length} older memory.` : 'Memory written.');
      onWritten(m);
    } catch (err) { setError(err); } finally { setBusy(false); }
  };
  return html`<details class="card write"><summary>Write a memory</summary>
    <form onSubmit=${submit} class="grid-form">
      <${Field} label="Content"><textarea required rows="3" value=${f.content} onInput=${(e) => set('content')(e.target.value)} /></${Field}>
      <${Field} label="Type"><${Select} value=${f.memory_type} onChange=${set('memory_type')} options=${WRITE_TYPES} blank="(inferred)" /></${Field}>
      <${Field} label="Agent"><input required value=${f.agent_id} disabled=${!!who.agent_id} onInput=${(e) => set('agent_id')(e.target.value)} /></${Field}>
      <${Field} label="Visibility"><${Select} value=${f.visibility} onChange=${set('visibility')} options=${VISIBILITIES} /></${Field}>
      <${Field} label="Weight"><input type="number" min="0" max="1" step="0.05" value=${f.weight} onInput=${(e) => set('weight')(e.target.value)} /></${Field}>
      <${Field} label="Fleet"><input value=${f.fleet_id} onInput=${(e) => set('fleet_id')(e.target.value)} placeholder="(none)" /></${Field}>
      <div class="actions"><button type="submit" disabled=${busy}>Write</button></div>
    </form><${ErrorBox} error=${error} /></details>`;
}

const EMPTY_FILTERS = { memory_type: '', status: '', filter_agent_id: '', fleet_id: '', visibility: '', created_after: '', created_before: '', sort: 'created_at', order: 'desc', limit: '50', include_deleted: false };
const dayStart = (d) => (d ? new Date(`${d}T00:00:00Z`).toISOString() : undefined);
const dayEnd = (d) => (d ? new Date(Date.parse(`${d}T00:00:00Z`) + 86400000).toISOString() : undefined);

function Filters({ value, onChange }) {
  const [f, setF] = useState(value);
  const set = (k) => (v) => setF({ ...f, [k]: v });
  return html`<form class="filters card" aria-label="List filters" onSubmit=${(e) => { e.preventDefault(); onChange(f); }}>
    <${Field} label="Type"><${Select} value=${f.memory_type} onChange=${set('memory_type')} options=${TYPES} blank="any" /></${Field}>
    <${Field} label="Status"><${Select} value=${f.status} onChange=${set('status')} options=${STATUSES} blank="any" /></${Field}>
    <${Field} label="Agent (author)"><input value=${f.filter_agent_id} onInput=${(e) => set('filter_agent_id')(e.target.value)} /></${Field}>
    <${Field} label="Fleet"><input value=${f.fleet_id} onInput=${(e) => set('fleet_id')(e.target.value)} /></${Field}>
    <${Field} label="Visibility"><${Select} value=${f.visibility} onChange=${set('visibility')} options=${VISIBILITIES} blank="any" /></${Field}>
    <${Field} label="Created from"><input type="date" value=${f.created_after} onInput=${(e) => set('created_after')(e.target.value)} /></${Field}>
    <${Field} label="Created to"><input type="date" value=${f.created_before} onInput=${(e) => set('created_before')(e.target.value)} /></${Field}>
    <${Field} label="Sort by"><${Select} value=${f.sort} onChange=${set('sort')} options=${SORTS} /></${Field}>
    <${Field} label="Order"><${Select} value=${f.order} onChange=${set('order')} options=${['desc', 'asc']} /></${Field}>
    <${Field} label="Page size"><${Select} value=${f.limit} onChange=${set('limit')} options=${['20', '50', '100', '200']} /></${Field}>
    <div class="field check"><input id="f-deleted" type="checkbox" checked=${f.include_deleted} onChange=${(e) => set('include_deleted')(e.target.checked)} /><label for="f-deleted">Include deleted</label></div>
    <div class="actions"><button type="submit">Apply filters</button>
      <button type="button" class="secondary" onClick=${() => { setF(EMPTY_FILTERS); onChange(EMPTY_FILTERS); }}>Reset</button></div>
  </form>`;
}

function MemoryTable({ items, onOpen, selected, extra }) {
  if (!items.length) return html`<p class="empty">No memories match.</p>`;
  return html`<div class="table-wrap"><table class="memories">
    <thead><tr><th scope="col">Content</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Agent</th>
      <th scope="col">Weight</th><th scope="col">Created</th>${extra ? html`<th scope="col">${extra.head}</th>` : null}</tr></thead>
    <tbody>${items.map((m) => html`<tr class=${m.id === selected ? 'selected' : ''} data-id=${m.id}>
      <td><button type="button" class="link row-open" onClick=${() => onOpen(m.id)}>${short(m.title && !m.content.startsWith(m.title) ? `${m.title} — ${m.content}` : m.content, 140)}</button></td>
      <td>${m.memory_type}</td><td><span class=${`status s-${m.status}`}>${m.deleted_at ? 'deleted' : m.status}</span></td>
      <td>${m.agent_id}</td><td>${m.weight}</td><td><time datetime=${m.created_at}>${fmtDate(m.created_at)}</time></td>
      ${extra ? html`<td>${extra.cell(m)}</td>` : null}</tr>`)}</tbody></table></div>`;
}

function ListView({ tenant, onOpen, selected, refresh, hidden }) {
  const [filters, setFilters] = useState(EMPTY_FILTERS);
  const [cursors, setCursors] = useState([null]); // cursor (or offset) of each page seen
  const page = cursors.length - 1;
  const useCursor = filters.sort === 'created_at' && filters.order === 'desc';
  const [data, error, loading] = useLoad(() => api('GET', '/api/v1/memories', {
    query: {
      tenant_id: tenant, memory_type: filters.memory_type, status: filters.status, filter_agent_id: filters.filter_agent_id,
      fleet_id: filters.fleet_id, visibility: filters.visibility, created_after: dayStart(filters.created_after),
      created_before: dayEnd(filters.created_before), sort: filters.sort, order: filters.order, limit: filters.limit,
      include_deleted: filters.include_deleted || undefined,
      ...(useCursor ? { cursor: cursors[page] ?? undefined } : { offset: cursors[page] ?? 0 }),
    },
  }), [tenant, filters, cursors, refresh]);
  const items = (data?.items ?? []).filter((m) => !hidden.has(m.id));
  const next = useCursor ? data?.next_cursor : (data?.items.length === Number(filters.limit) ? (cursors[page] ?? 0) + Number(filters.limit) : null);
  return html`<section aria-labelledby="list-h">
    <h2 id="list-h">All memories</h2>
    <${Filters} value=${filters} onChange=${(f) => { setFilters(f); setCursors([null]); }} />
    <${ErrorBox} error=${error} />
    ${loading && !data ? html`<${Spinner} />` : html`<${MemoryTable} items=${items} onOpen=${onOpen} selected=${selected} />`}
    <nav class="pager" aria-label="Pages of memories">
      <button type="button" class="secondary" disabled=${page === 0} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous</button>
      <span>Page ${page + 1}</span>
      <button type="button" class="secondary" disabled=${!next} onClick=${() => setCursors([...cursors, next])}>Next</button>
    </nav></section>`;
}

function SearchView({ tenant, onOpen, selected, hidden }) {
  const [q, setQ] = useState({ query: '', mode: 'search', diagnostic: false, top_k: '10' });
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const run = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { tenant_id: tenant, query: q.query, top_k: Number(q.top_k), diagnostic: q.diagnostic };
      const r = await api('POST', `/api/v1/${q.mode}`, { body });
      setResult({ ...r, mode: q.mode });
    } catch (err) { setError(err); setResult(null); } finally { setBusy(false); }
  };
  const items = (result?.items ?? []).filter((m) => !hidden.has(m.id));
  const rank = (v) => (v == null ? '–' : v);
  return html`<section aria-labelledby="search-h" class="card">
    <h2 id="search-h">Find</h2>
    <form class="search-form" role="search" onSubmit=${run}>
      <${Field} label="Query"><input type="search" required value=${q.query} onInput=${(e) => setQ({ ...q, query: e.target.value })} /></${Field}>
      <${Field} label="Mode"><${Select} value=${q.mode} onChange=${(v) => setQ({ ...q, mode: v })} options=${['search', 'recall']} /></${Field}>
      <${Field} label="Top k"><${Select} value=${q.top_k} onChange=${(v) => setQ({ ...q, top_k: v })} options=${['5', '10', '20', '50']} /></${Field}>
      <div class="field check"><input id="s-diag" type="checkbox" checked=${q.diagnostic} onChange=${(e) => setQ({ ...q, diagnostic: e.target.checked })} /><label for="s-diag">Per-leg diagnostics</label></div>
      <div class="actions"><button type="submit" disabled=${busy}>Find</button>
        ${result ? html`<button type="button" class="secondary" onClick=${() => setResult(null)}>Clear results</button>` : null}</div>
    </form>
    <${ErrorBox} error=${error} />
    ${result ? html`<div class="results" aria-live="polite">
      ${result.mode === 'recall' ? html`<div class="summary"><h3>Summary <small>(${result.summary_source}, ${Math.round(result.recall_ms)} ms)</small></h3><p>${result.summary}</p></div>` : null}
      ${result.diagnostic ? html`<p class="diag">Timings (ms): ${Object.entries(result.diagnostic.timings_ms).map(([k, v]) => `${k} ${Math.round(v * 10) / 10}`).join(' · ')}.
        Candidates: vector ${rank(result.diagnostic.candidates.vector)}, keyword ${rank(result.diagnostic.candidates.keyword)}, entity ${rank(result.diagnostic.candidates.entity)}.
        ${result.diagnostic.keyword_terms.length ? ` Terms: ${result.diagnostic.keyword_terms.join(', ')}.` : ''}
        ${result.diagnostic.entities.length ? ` Entities: ${result.diagnostic.entities.map((x) => x.name).join(', ')}.` : ''}</p>` : null}
      <h3>${items.length} result${items.length === 1 ? '' : 's'}</h3>
      <${MemoryTable} items=${items} onOpen=${onOpen} selected=${selected} extra=${{
        head: result.diagnostic ? 'Similarity · ranks v/k/e · score' : 'Similarity',
        cell: (m) => (m.diagnostic ? `${m.similarity.toFixed(3)} · ${rank(m.diagnostic.ranks.vector)}/${rank(m.diagnostic.ranks.keyword)}/${rank(m.diagnostic.ranks.entity)} · ${m.diagnostic.score.toFixed(4)}` : m.similarity.toFixed(3)),
      }} />
    </div>` : null}
  </section>`;
}

/** Follows supersedes_id back to the oldest memory the caller can see (at most 20 steps). */
async function olderChain(tenant, m) {
  const chain = [];
  let id = m.supersedes_id;
  while (id && chain.length < 20) {
    try {
      const o = await api('GET', `/api/v1/memories/${id}`, { query: { tenant_id: tenant, include_deleted: true } });
      chain.push(o);
      id = o.supersedes_id;
    } catch { break; }
  }
  return chain;
}

/** Follows the findings' superseded_by links forward to the newest replacement (at most 20 steps). */
async function newerChain(tenant, first) {
  const chain = [];
  const seen = new Set();
  let next = first;
  while (next && chain.length < 20 && !seen.has(next.id)) {
    seen.add(next.id);
    chain.push(next);
    const f = await api('GET', `/api/v1/memories/${next.id}/contradictions`, { query: { tenant_id: tenant } }).catch(() => null);
    next = f?.contradictions.find((c) => c.direction === 'superseded_by') ?? null;
  }
  return chain;
}

function EditForm({ tenant, m, onSaved }) {
  const [f, setF] = useState({ content: m.content, metadata: JSON.stringify(m.metadata ?? {}, null, 2), weight: String(m.weight), status: m.status });
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const save = async (e) => {
    e.preventDefault();
    setError(null);
    let metadata;
    try { metadata = JSON.parse(f.metadata || '{}'); } catch { return setError(new Error('Metadata is not valid JSON')); }
    if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return setError(new Error('Metadata must be a JSON object'));
    setBusy(true);
    try {
      const body = {};
      if (f.content !== m.content) body.content = f.content;
      if (Number(f.weight) !== m.weight) body.weight = Number(f.weight);
      if (JSON.stringify(metadata) !== JSON.stringify(m.metadata ?? {})) { body.metadata = metadata; body.metadata_mode = 'replace'; }
      if (Object.keys(body).length) await api('PATCH', `/api/v1/memories/${m.id}`, { query: { tenant_id: tenant }, body });
      if (f.status !== m.status) await api('PATCH', `/api/v1/memories/${m.id}/status`, { query: { tenant_id: tenant }, body: { status: f.status } });
      toast('Memory saved.');
      onSaved();
    } catch (err) { setError(err); } finally { setBusy(false); }
  };
  return html`<form class="edit grid-form" onSubmit=${save} aria-label="Edit memory">
    <${Field} label="Content"><textarea rows="4" required value=${f.content} onInput=${(e) => setF({ ...f, content: e.target.value })} /></${Field}>
    <${Field} label="Metadata (JSON)"><textarea rows="4" class="mono" value=${f.metadata} onInput=${(e) => setF({ ...f, metadata: e.target.value })} /></${Field}>
    <${Field} label="Weight"><input type="number" min="0" max="1" step="0.05" value=${f.weight} onInput=${(e) => setF({ ...f, weight: e.target.value })} /></${Field}>
    <${Field} label="Status"><${Select} value=${f.status} onChange=${(v) => setF({ ...f, status: v })} options=${SET_STATUSES} /></${Field}>
    <div class="actions"><button type="submit" disabled=${busy}>Save changes</button></div>
    <${ErrorBox} error=${error} />
  </form>`;
}

const HIDDEN_FIELDS = new Set(['embedding', 'entity_links', 'metadata', 'content']);

export function MemoryDetail({ tenant, id, trust, onClose, onOpen, onDelete, onChanged, version }) {
  const [tick, setTick] = useState(0);
  const [m, error, loading, reload] = useLoad(async () => {
    // Findings first, then the memory: a detection that lands between the two reads then shows in
    // both (its supersedes link with its finding), never as a finding without its chain.
    const findings = await api('GET', `/api/v1/memories/${id}/contradictions`, { query: { tenant_id: tenant } }).catch(() => null);
    const mem = await api('GET', `/api/v1/memories/${id}`, { query: { tenant_id: tenant, include_deleted: true } });
    const older = await olderChain(tenant, mem);
    const firstNewer = findings?.contradictions.find((c) => c.direction === 'superseded_by');
    const newer = firstNewer ? await newerChain(tenant, firstNewer) : [];
    return { mem, findings, older, newer };
  }, [id, tenant, tick, version]);
  // Contradiction detection runs after a write: look again a few times while it may still be pending.
  useEffect(() => {
    if (!m || m.findings?.detection_status !== 'pending' || tick >= 4) return undefined;
    const t = setTimeout(() => setTick(tick + 1), 1500);
    return () => clearTimeout(t);
  }, [m, tick]);
  if (error) return html`<aside class="detail card"><${ErrorBox} error=${error} /><button type="button" onClick=${onClose}>Close</button></aside>`;
  if (!m) return html`<aside class="detail card"><${Spinner} /></aside>`;
  const { mem, findings, older } = m;
  const newer = [...m.newer].reverse(); // newest first, like the rest of the chain
  return html`<aside class="detail card" aria-labelledby="detail-h">
    <div class="detail-head"><h2 id="detail-h">Memory</h2>
      <button type="button" class="secondary" onClick=${onClose} aria-label="Close detail">Close</button></div>
    <p class="content">${mem.content}</p>
    <dl class="fields">${Object.entries(mem).filter(([k]) => !HIDDEN_FIELDS.has(k)).map(([k, v]) => html`<dt>${k}</dt><dd>${v === null ? '—' : String(v)}</dd>`)}
      <dt>embedding</dt><dd>${mem.embedding ? `${mem.embedding.length} dims (${mem.embedding_model ?? 'model unknown'})` : '—'}</dd>
      <dt>metadata</dt><dd><pre>${JSON.stringify(mem.metadata, null, 2)}</pre></dd></dl>
    <h3>Entities</h3>
    ${mem.entity_links.length ? html`<ul class="chips">${mem.entity_links.map((e) => html`<li><a href=${`#/graph?entity=${e.entity_id}`}>${e.name}</a> <small>${e.entity_type} · ${e.role}</small></li>`)}</ul>` : html`<p class="empty">None.</p>`}
    <h3>Supersedes chain</h3>
    <ol class="chain" aria-label="Supersedes chain, newest first">
      ${newer.map((c) => html`<li>newer: <button type="button" class="link" onClick=${() => onOpen(c.id)}>${short(c.content_preview, 90)}</button> <small>${c.status}</small></li>`)}
      <li aria-current="true"><b>this memory</b> <small>${mem.status}</small></li>
      ${older.map((o) => html`<li>older: <button type="button" class="link" onClick=${() => onOpen(o.id)}>${short(o.content, 90)}</button> <small>${o.deleted_at ? 'deleted' : o.status}</small></li>`)}
    </ol>
    <h3>Contradictions <small>(detection ${findings?.detection_status ?? 'unknown'})</small></h3>
    ${findings?.contradictions.length ? html`<ul class="contradictions">${findings.contradictions.map((c) => html`<li>
      <span class="badge">${c.reason === 'rdf_conflict' ? 'replaced' : 'conflict'}</span>
      ${c.direction === 'supersedes' ? 'this replaced' : 'replaced by'}:
      <button type="button" class="link" onClick=${() => onOpen(c.id)}>${short(c.content_preview, 100)}</button> <small>(${c.status})</small></li>`)}</ul>`
      : html`<p class="empty">None found.</p>`}
    <button type="button" class="secondary" onClick=${reload} disabled=${loading}>Refresh</button>
    ${trust >= 1 && !mem.deleted_at ? html`<h3>Edit</h3><${EditForm} key=${mem.updated_at} tenant=${tenant} m=${mem} onSaved=${() => { setTick(tick + 1); onChanged?.(); }} />
      <button type="button" class="danger" onClick=${() => onDelete(mem.id)}>Delete memory</button>` : null}
  </aside>`;
}

export function MemoriesPage({ tenant, who, trust, params }) {
  const [selected, setSelected] = useState(params.get('id'));
  const [refresh, setRefresh] = useState(0);
  const [hidden, setHidden] = useState(new Set());
  const del = (id) => {
    setHidden(new Set([...hidden, id]));
    setSelected(null);
    scheduleDelete(tenant, id, () => setRefresh((r) => r + 1), () => {
      setHidden((h) => { const n = new Set(h); n.delete(id); return n; });
      setSelected(id);
    });
  };
  return html`<div class="page memories-page">
    <h1>Memories</h1>
    ${trust >= 1 ? html`<${WriteForm} tenant=${tenant} who=${who} onWritten=${(m) => { setRefresh(refresh + 1); setSelected(m.id); }} />` : null}
    <div class=${selected ? 'split' : ''}>
      <div class="main-col">
        <${SearchView} tenant=${tenant} onOpen=${setSelected} selected=${selected} hidden=${hidden} />
        <${ListView} tenant=${tenant} onOpen=${setSelected} selected=${selected} refresh=${refresh} hidden=${hidden} />
      </div>
      ${selected ? html`<${MemoryDetail} key=${selected} tenant=${tenant} id=${selected} trust=${trust} version=${refresh}
        onClose=${() => setSelected(null)} onOpen=${setSelected} onDelete=${del} onChanged=${() => setRefresh((r) => r + 1)} />` : null}
    </div>
  </div>`;
}
