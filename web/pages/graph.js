// Graph: the tenant's entities and relations drawn by sigma (WebGL) over a graphology graph, laid out
// by ForceAtlas2 in a web worker (the page stays responsive while it runs); search, zoom, click an
// entity to see its relations and memories.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Field, ErrorBox, Spinner, short } from '../lib.js';
import { api } from '../api.js';

const SCRIPTS = ['/vendor/graphology.umd.min.js', '/vendor/graphology-library.min.js', '/vendor/sigma.min.js'];
let loading = null;
/** Loads the graph libraries once, in order, from this server. */
export function loadGraphLibraries() {
  loading ??= SCRIPTS.reduce((p, src) => p.then(() => new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`Could not load ${src}`));
    document.head.append(s);
  })), Promise.resolve());
  return loading;
}

const COLORS = { person: '#1f5fbf', organization: '#b3261e', org: '#b3261e', place: '#1e6b34', location: '#1e6b34', product: '#8a5300', date: '#6a3d9a', other: '#4d5560' };

/**
 * Draws {entities, relations} into `container`; returns {sigma, graph, layout, stop()}. Relations to
 * values (no object entity) are left out of the drawing. The layout runs for `layoutMs`.
 */
export function drawGraph(container, data, { layoutMs = 4000, onClick } = {}) {
  const { MultiDirectedGraph } = window.graphology;
  const lib = window.graphologyLibrary;
  const graph = new MultiDirectedGraph();
  const max = Math.max(1, ...data.entities.map((e) => e.mention_count));
  const n = data.entities.length;
  data.entities.forEach((e, i) => {
    // A spiral start: deterministic, spread, and ForceAtlas2 untangles it quickly.
    const a = i * 2.399963, r = Math.sqrt(i + 1) * 10;
    graph.addNode(e.id, {
      label: e.name, x: Math.cos(a) * r, y: Math.sin(a) * r, size: 3 + 12 * Math.sqrt(e.mention_count / max),
      color: COLORS[e.entity_type] ?? COLORS.other, entity_type: e.entity_type,
    });
  });
  for (const r of data.relations) {
    if (!r.object_entity_id || !graph.hasNode(r.subject_entity_id) || !graph.hasNode(r.object_entity_id)) continue;
    graph.addEdgeWithKey(r.id, r.subject_entity_id, r.object_entity_id, { label: r.predicate, size: 1 + Math.log2(1 + r.mention_count), color: '#a9b0ba' });
  }
  const renderer = new window.Sigma(graph, container, {
    renderEdgeLabels: n < 300, allowInvalidContainer: true, labelRenderedSizeThreshold: n > 1000 ? 10 : 6, defaultEdgeType: n > 1000 ? 'line' : 'arrow', zIndex: true, hideLabelsOnMove: n > 1000,
  });
  let layout = null;
  let timer = null;
  if (n > 1) {
    layout = new lib.FA2Layout(graph, { settings: { ...lib.layoutForceAtlas2.inferSettings(graph), barnesHutOptimize: n > 300 } });
    layout.start();
    timer = setTimeout(() => layout.stop(), layoutMs);
  }
  if (onClick) renderer.on('clickNode', ({ node }) => onClick(node));
  return {
    sigma: renderer, graph, layout,
    stop() { clearTimeout(timer); layout?.kill(); renderer.kill(); },
  };
}

function EntityPanel({ tenant, id }) {
  const [state, setState] = useState({ loading: true });
  useEffect(() => {
    let live = true;
    setState({ loading: true });
    (async () => {
      const e = await api('GET', `/api/v1/entities/${id}`, { query: { tenant_id: tenant } });
      const memories = await Promise.all(e.linked_memory_ids.slice(0, 20).map((mid) =>
        api('GET', `/api/v1/memories/${mid}`, { query: { tenant_id: tenant } }).catch(() => null)));
      return { e, memories: memories.filter(Boolean) };
    })().then((d) => live && setState(d), (error) => live && setState({ error }));
    return () => { live = false; };
  }, [id, tenant]);
  if (state.loading) return html`<aside class="card"><${Spinner} /></aside>`;
  if (state.error) return html`<aside class="card"><${ErrorBox} error=${state.error} /></aside>`;
  const { e, memories } = state;
  return html`<aside class="card entity-panel" aria-labelledby="entity-h">
    <h2 id="entity-h">${e.name}</h2>
    <p class="muted">${e.entity_type} · mentioned by ${e.mention_count} memories${e.aliases.length ? ` · also ${e.aliases.join(', ')}` : ''}</p>
    <h3>Relations</h3>
    ${e.relations.length ? html`<ul>${e.relations.slice(0, 20).map((r) => html`<li>${r.subject_entity_id === e.id ? '' : '← '}<b>${r.predicate}</b> ${r.object_value ?? ''} <small>×${r.mention_count}</small></li>`)}</ul>` : html`<p class="empty">None.</p>`}
    <h3>Memories</h3>
    <ul class="entity-memories">${memories.map((m) => html`<li><a href=${`#/memories?id=${m.id}`}>${short(m.content, 160)}</a></li>`)}</ul>
  </aside>`;
}

export function GraphPage({ tenant, params }) {
  const box = useRef(null);
  const drawn = useRef(null);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [selected, setSelected] = useState(params.get('entity'));
  const [query, setQuery] = useState('');
  const [running, setRunning] = useState(false);
  const [limit, setLimit] = useState('200');

  useEffect(() => {
    let live = true;
    setError(null);
    Promise.all([loadGraphLibraries(), api('GET', '/api/v1/graph', { query: { tenant_id: tenant, limit } })])
      .then(([, g]) => live && setData(g), (err) => live && setError(err));
    return () => { live = false; };
  }, [tenant, limit]);

  useEffect(() => {
    if (!data || !box.current || !data.entities.length) return undefined;
    const d = drawGraph(box.current, data, { onClick: setSelected });
    drawn.current = d;
    setRunning(!!d.layout);
    const poll = setInterval(() => setRunning(!!d.layout?.isRunning()), 500);
    return () => { clearInterval(poll); d.stop(); drawn.current = null; };
  }, [data]);

  // The selected entity is highlighted and the camera moves to it.
  useEffect(() => {
    const d = drawn.current;
    if (!d || !selected || !d.graph.hasNode(selected)) return;
    d.graph.forEachNode((n) => d.graph.setNodeAttribute(n, 'highlighted', n === selected));
    const pos = d.sigma.getNodeDisplayData(selected);
    if (pos) d.sigma.getCamera().animate({ x: pos.x, y: pos.y, ratio: 0.4 }, { duration: 400 });
  }, [selected, data]);

  const search = (e) => {
    e.preventDefault();
    const d = drawn.current;
    if (!d || !query.trim()) return;
    const q = query.trim().toLowerCase();
    const hit = d.graph.findNode((_, a) => a.label.toLowerCase() === q) ?? d.graph.findNode((_, a) => a.label.toLowerCase().includes(q));
    if (hit) setSelected(hit);
    else setError(new Error(`No entity named like “${query}” in this view`));
  };
  const camera = (fn) => () => drawn.current && fn(drawn.current.sigma.getCamera());
  return html`<div class="page">
    <h1>Graph</h1>
    <div class="card graph-tools">
      <form role="search" class="actions" onSubmit=${search}>
        <${Field} label="Find entity"><input type="search" value=${query} onInput=${(e) => setQuery(e.target.value)} /></${Field}>
        <button type="submit">Find</button>
        <${Field} label="Entities shown"><select value=${limit} onChange=${(e) => setLimit(e.target.value)}>${['100', '200', '500'].map((v) => html`<option value=${v}>${v}</option>`)}</select></${Field}>
        <button type="button" class="secondary" onClick=${camera((c) => c.animatedZoom({ duration: 200 }))}>Zoom in</button>
        <button type="button" class="secondary" onClick=${camera((c) => c.animatedUnzoom({ duration: 200 }))}>Zoom out</button>
        <button type="button" class="secondary" onClick=${camera((c) => c.animatedReset({ duration: 200 }))}>Fit</button>
        <button type="button" class="secondary" disabled=${!drawn.current?.layout} onClick=${() => {
          const l = drawn.current?.layout;
          if (!l) return;
          if (l.isRunning()) l.stop(); else l.start();
          setRunning(l.isRunning());
        }}>${running ? 'Stop layout' : 'Run layout'}</button>
      </form>
      <p class="muted" aria-live="polite">${data ? `${data.entities.length} entities, ${data.relations.length} relations${data.truncated ? ' (the most mentioned; more exist)' : ''}.` : ''}</p>
    </div>
    <${ErrorBox} error=${error} />
    ${!data && !error ? html`<${Spinner} />` : null}
    ${data && !data.entities.length ? html`<p class="empty">No entities yet: write memories that name people, places or organisations.</p>` : null}
    <div class="graph-layout">
      <div id="graph-canvas" ref=${box} role="img" aria-label="Entity graph; use Find entity to select an entity by name"></div>
      ${selected ? html`<${EntityPanel} key=${selected} tenant=${tenant} id=${selected} />` : html`<aside class="card"><p class="muted">Click an entity, or find one by name, to see its relations and memories.</p></aside>`}
    </div>
  </div>`;
}
