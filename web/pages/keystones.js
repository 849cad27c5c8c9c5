// Keystones: the mandatory rules that apply to the tenant, a fleet or an agent; list, create, edit, delete.
import { useState } from 'preact/hooks';
import { html, Field, ErrorBox, Spinner, useLoad, fmtDate, toast } from '../lib.js';
import { api } from '../api.js';

const EMPTY = { doc_id: '', title: '', content: '', scope: 'tenant', weight: 'med', fleet_id: '', agent_id: '' };
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 100);

function Editor({ tenant, initial, onSaved, onCancel }) {
  const [f, setF] = useState(initial);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const editing = !!initial.doc_id;
  const set = (k) => (e) => setF({ ...f, [k]: e.target.value });
  const save = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { tenant_id: tenant, doc_id: f.doc_id || slug(f.title), title: f.title, content: f.content, scope: f.scope, weight: f.weight };
      if (f.scope === 'fleet') body.fleet_id = f.fleet_id;
      if (f.scope === 'agent') body.agent_id = f.agent_id;
      const r = await api('POST', '/api/v1/loci/keystones', { body });
      toast(r.created ? 'Keystone created.' : 'Keystone saved.');
      onSaved();
    } catch (err) { setError(err); } finally { setBusy(false); }
  };
  return html`<form class="card grid-form" onSubmit=${save} aria-label=${editing ? 'Edit keystone' : 'New keystone'}>
    <h2 style="grid-column: 1 / -1">${editing ? `Edit “${initial.title}”` : 'New keystone'}</h2>
    <${Field} label="Title"><input required maxlength="200" value=${f.title} onInput=${set('title')} /></${Field}>
    <${Field} label="Id" hint="Stable id; the same id replaces the rule."><input value=${f.doc_id} disabled=${editing} pattern="[a-z0-9][a-z0-9._\\-]{0,99}" onInput=${set('doc_id')} placeholder=${slug(f.title) || 'from the title'} /></${Field}>
    <${Field} label="Rule"><textarea required rows="3" value=${f.content} onInput=${set('content')} /></${Field}>
    <${Field} label="Scope"><select value=${f.scope} onChange=${set('scope')}>${['tenant', 'fleet', 'agent'].map((s) => html`<option value=${s}>${s}</option>`)}</select></${Field}>
    <${Field} label="Weight"><select value=${f.weight} onChange=${set('weight')}>${['low', 'med', 'high'].map((s) => html`<option value=${s}>${s}</option>`)}</select></${Field}>
    ${f.scope === 'fleet' ? html`<${Field} label="Fleet"><input required value=${f.fleet_id} onInput=${set('fleet_id')} /></${Field}>` : null}
    ${f.scope === 'agent' ? html`<${Field} label="Agent"><input required value=${f.agent_id} onInput=${set('agent_id')} /></${Field}>` : null}
    <div class="actions"><button type="submit" disabled=${busy}>Save keystone</button>
      ${onCancel ? html`<button type="button" class="secondary" onClick=${onCancel}>Cancel</button>` : null}</div>
    <div style="grid-column: 1 / -1"><${ErrorBox} error=${error} /></div>
  </form>`;
}

export function KeystonesPage({ tenant, trust }) {
  const [fleet, setFleet] = useState('');
  const [agent, setAgent] = useState('');
  const [editing, setEditing] = useState(null);
  const [rules, error, loading, reload] = useLoad(() => api('GET', '/api/v1/loci/keystones', { query: { tenant_id: tenant, fleet_id: fleet, agent_id: agent } }), [tenant, fleet, agent]);
  const del = async (k) => {
    if (!confirm(`Delete the keystone “${k.title}”?`)) return;
    try {
      await api('DELETE', `/api/v1/loci/keystones/${encodeURIComponent(k.doc_id)}`, { query: { tenant_id: tenant } });
      toast('Keystone deleted.');
      reload();
    } catch (err) { toast(`Delete failed: ${err.message}`); }
  };
  const weightLabel = (k) => k.weight_label ?? k.weight;
  return html`<div class="page">
    <h1>Keystones</h1>
    <p class="muted">Mandatory rules every agent of the tenant (or one fleet, or one agent) is given. Heaviest first.</p>
    ${trust >= 1 ? (editing ? html`<${Editor} key=${editing.doc_id} tenant=${tenant} initial=${editing} onSaved=${() => { setEditing(null); reload(); }} onCancel=${() => setEditing(null)} />`
      : html`<${Editor} key="new" tenant=${tenant} initial=${EMPTY} onSaved=${reload} />`) : null}
    <div class="card actions" role="group" aria-label="Also show rules of">
      <${Field} label="Also fleet"><input value=${fleet} onChange=${(e) => setFleet(e.target.value.trim())} /></${Field}>
      <${Field} label="Also agent"><input value=${agent} onChange=${(e) => setAgent(e.target.value.trim())} /></${Field}>
    </div>
    <${ErrorBox} error=${error} />
    ${loading && !rules ? html`<${Spinner} />` : null}
    ${rules && !rules.length ? html`<p class="empty">No keystones yet.</p>` : null}
    ${rules?.length ? html`<div class="table-wrap"><table class="keystones">
      <thead><tr><th scope="col">Title</th><th scope="col">Rule</th><th scope="col">Scope</th><th scope="col">Weight</th><th scope="col">Updated</th>${trust >= 1 ? html`<th scope="col"><span class="sr">Actions</span></th>` : null}</tr></thead>
      <tbody>${rules.map((k) => html`<tr data-doc=${k.doc_id}><td><b>${k.title}</b><br /><small>${k.doc_id}</small></td><td>${k.content}</td>
        <td>${k.scope}${k.fleet_id ? ` · ${k.fleet_id}` : ''}${k.agent_id ? ` · ${k.agent_id}` : ''}</td><td>${weightLabel(k)}</td><td>${fmtDate(k.updated_at)}</td>
        ${trust >= 1 ? html`<td class="actions"><button type="button" class="secondary" aria-label=${`Edit ${k.title}`} onClick=${() => setEditing({ ...EMPTY, ...k, weight: k.weight_label, fleet_id: k.fleet_id ?? '', agent_id: k.agent_id ?? '' })}>Edit</button>
          <button type="button" class="danger" aria-label=${`Delete ${k.title}`} onClick=${() => del(k)}>Delete</button></td>` : null}</tr>`)}</tbody></table></div>` : null}
  </div>`;
}
