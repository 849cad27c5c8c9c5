// Stats: counts by type, agent and status; writes per day and search latency (uPlot); admins see
// every tenant's counts and mint or revoke keys.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Field, ErrorBox, Spinner, useLoad, fmtDate, toast } from '../lib.js';
import { api } from '../api.js';

let uplot = null;
function loadUplot() {
  uplot ??= new Promise((resolve, reject) => {
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = '/vendor/uPlot.min.css';
    document.head.append(css);
    const s = document.createElement('script');
    s.src = '/vendor/uPlot.iife.min.js';
    s.onload = () => resolve(window.uPlot);
    s.onerror = () => reject(new Error('Could not load the chart library'));
    document.head.append(s);
  });
  return uplot;
}

function Chart({ title, data, series, bars }) {
  const box = useRef(null);
  useEffect(() => {
    let chart = null;
    let live = true;
    loadUplot().then((UPlot) => {
      if (!live || !box.current) return;
      const width = Math.max(280, box.current.clientWidth);
      chart = new UPlot({
        width, height: 220, title,
        series: [{}, ...series.map((s) => ({ stroke: s.color, fill: bars ? `${s.color}55` : undefined, label: s.label, width: 2, ...(bars ? { paths: UPlot.paths.bars({ size: [0.6, 40] }) } : {}) }))],
        axes: [{}, { size: 50 }],
        scales: { x: { time: true } },
      }, data, box.current);
    });
    return () => { live = false; chart?.destroy(); };
  }, [data]);
  return html`<div class="chart" ref=${box} role="img" aria-label=${title}></div>`;
}

function Bars({ title, counts }) {
  const entries = Object.entries(counts ?? {}).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  return html`<section class="card" aria-label=${title}><h2>${title}</h2>
    ${entries.length ? html`<ul class="bars" style="list-style:none;padding:0">${entries.slice(0, 25).map(([k, n]) => html`<li class="bar"><span>${k}</span>
      <span><span class="fill" style=${`width:${(100 * n) / max}%`}></span></span><span>${n}</span></li>`)}</ul>` : html`<p class="empty">None.</p>`}</section>`;
}

function daySeries(writes, days) {
  const by = new Map(writes.map((w) => [w.day, w.writes]));
  const xs = [], ys = [];
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  for (let i = days - 1; i >= 0; i--) {
    const t = today - i * 86400000;
    xs.push(t / 1000);
    ys.push(by.get(new Date(t).toISOString().slice(0, 10)) ?? 0);
  }
  return [xs, ys];
}

function Keys({ tenant }) {
  const [keys, error, loading, reload] = useLoad(() => api('GET', '/api/v1/admin/keys', { query: { tenant_id: tenant } }), [tenant]);
  const [f, setF] = useState({ agent_id: '', fleet_id: '', trust_level: '1', name: '' });
  const [minted, setMinted] = useState(null);
  const [mErr, setMErr] = useState(null);
  const mint = async (e) => {
    e.preventDefault();
    setMErr(null);
    try {
      const body = { tenant_id: tenant, trust_level: Number(f.trust_level) };
      for (const k of ['agent_id', 'fleet_id', 'name']) if (f[k].trim()) body[k] = f[k].trim();
      const k = await api('POST', '/api/v1/admin/keys', { body });
      setMinted(k);
      reload();
    } catch (err) { setMErr(err); }
  };
  const revoke = async (k) => {
    if (!confirm(`Revoke the key ${k.prefix}… (${k.name ?? 'unnamed'})? Agents using it lose access.`)) return;
    try {
      await api('DELETE', `/api/v1/admin/keys/${k.id}`);
      toast('Key revoked.');
      reload();
    } catch (err) { toast(`Revoke failed: ${err.message}`); }
  };
  const set = (k) => (e) => setF({ ...f, [k]: e.target.value });
  return html`<section class="card" aria-labelledby="keys-h"><h2 id="keys-h">API keys of ${tenant}</h2>
    <form class="grid-form" onSubmit=${mint} aria-label="Mint a key">
      <${Field} label="Agent (optional)"><input value=${f.agent_id} onInput=${set('agent_id')} /></${Field}>
      <${Field} label="Fleet (optional)"><input value=${f.fleet_id} onInput=${set('fleet_id')} /></${Field}>
      <${Field} label="Trust level"><select value=${f.trust_level} onChange=${set('trust_level')}>
        ${[['0', '0 read-only'], ['1', '1 standard'], ['2', '2 cross-fleet'], ['3', '3 admin']].map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select></${Field}>
      <${Field} label="Name"><input value=${f.name} onInput=${set('name')} /></${Field}>
      <div class="actions"><button type="submit">Mint key</button></div>
    </form>
    <${ErrorBox} error=${mErr} />
    ${minted ? html`<div class="summary" role="status"><p>New key (shown once; copy it now):</p><p><code class="minted-key">${minted.key}</code></p>
      <button type="button" class="secondary" onClick=${() => setMinted(null)}>Done</button></div>` : null}
    <${ErrorBox} error=${error} />
    ${loading && !keys ? html`<${Spinner} />` : null}
    ${keys ? html`<div class="table-wrap"><table class="keys"><thead><tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">Agent</th><th scope="col">Trust</th>
      <th scope="col">Last used</th><th scope="col">State</th></tr></thead>
      <tbody>${keys.items.map((k) => html`<tr data-key=${k.id}><td><code>${k.prefix}…</code></td><td>${k.name ?? '—'}</td><td>${k.agent_id ?? '—'}${k.fleet_id ? ` · ${k.fleet_id}` : ''}</td>
        <td>${k.trust_level}</td><td>${fmtDate(k.last_used_at)}</td>
        <td>${k.revoked_at ? `revoked ${fmtDate(k.revoked_at)}` : html`<button type="button" class="danger" aria-label=${`Revoke ${k.prefix}`} onClick=${() => revoke(k)}>Revoke</button>`}</td></tr>`)}</tbody></table></div>` : null}
  </section>`;
}

export function StatsPage({ tenant, admin }) {
  const [days, setDays] = useState('30');
  const [stats, error] = useLoad(() => api('GET', '/api/v1/memories/stats', { query: { tenant_id: tenant } }), [tenant]);
  const [activity, aErr] = useLoad(() => api('GET', '/api/v1/activity', { query: { tenant_id: tenant, days } }), [tenant, days]);
  const [all] = useLoad(() => (admin ? api('GET', '/api/v1/admin/memories/stats') : Promise.resolve(null)), [admin]);
  const lat = activity?.search_latency;
  return html`<div class="page">
    <h1>Stats</h1>
    <${ErrorBox} error=${error ?? aErr} />
    ${!stats ? html`<${Spinner} />` : html`<p class="lead"><b class="total">${stats.total}</b> memories in <b>${tenant}</b>.</p>
    <div class="stat-grid">
      <${Bars} title="By type" counts=${stats.by_type} />
      <${Bars} title="By agent" counts=${stats.by_agent} />
      <${Bars} title="By status" counts=${stats.by_status} />
      ${all ? html`<${Bars} title="By tenant (all tenants)" counts=${all.by_tenant} />` : null}
    </div>`}
    ${activity ? html`<div class="stat-grid">
      <section class="card"><h2>Writes per day</h2>
        <${Field} label="Days"><select value=${days} onChange=${(e) => setDays(e.target.value)}>${['7', '30', '90', '365'].map((d) => html`<option value=${d}>${d}</option>`)}</select></${Field}>
        <${Chart} title="Memories written per day (UTC)" data=${daySeries(activity.writes, Number(days))} series=${[{ label: 'writes', color: '#1f5fbf' }]} bars=${true} />
        <details><summary>As a table</summary><ul>${activity.writes.map((w) => html`<li>${w.day}: ${w.writes}</li>`)}</ul></details></section>
      <section class="card"><h2>Search latency</h2>
        <p class="latency">${lat.count ? `p50 ${lat.p50_ms} ms · p95 ${lat.p95_ms} ms · p99 ${lat.p99_ms} ms over the last ${lat.count} searches and recalls` : 'No searches yet since the server started.'}</p>
        ${lat.count ? html`<${Chart} title="Recent searches (ms)" data=${[lat.recent.map((r) => r[0] / 1000), lat.recent.map((r) => r[1])]} series=${[{ label: 'ms', color: '#b3261e' }]} />` : null}
        <p class="muted">Measured by this server process since it started.</p></section>
    </div>` : null}
    ${admin ? html`<${Keys} tenant=${tenant} />` : null}
  </div>`;
}
