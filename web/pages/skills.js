// Skills inbox (admins): staged skills to approve, edit, reject, quarantine or defer.
import { useState } from 'preact/hooks';
import { html, Field, ErrorBox, Spinner, useLoad, fmtDate, toast } from '../lib.js';
import { api } from '../api.js';

const STATES = ['staged', 'candidate', 'active', 'quarantined', 'rejected', 'stale', 'deprecated'];

function SkillCard({ tenant, card, onDone }) {
  const [mode, setMode] = useState(null); // edit | reject | quarantine | defer
  const [f, setF] = useState({ name: card.name ?? '', description: card.description ?? '', summary: card.summary ?? '', content: card.content ?? '', reason: '', cooloff_days: '30' });
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const set = (k) => (e) => setF({ ...f, [k]: e.target.value });
  const act = async (action, body) => {
    setBusy(true);
    setError(null);
    try {
      const r = await api('POST', `/api/v1/skills-inbox/${encodeURIComponent(card.slug)}/${action}`, { query: { tenant_id: tenant }, body });
      toast(`${card.name ?? card.slug}: ${r.previous_status} → ${r.new_status}${r.detail ? ` (${r.detail})` : ''}.`);
      setMode(null);
      onDone();
    } catch (err) { setError(err); } finally { setBusy(false); }
  };
  const submit = (e) => {
    e.preventDefault();
    if (mode === 'edit') {
      const body = {};
      for (const k of ['name', 'description', 'summary', 'content']) if (f[k] && f[k] !== (card[k] ?? '')) body[k] = f[k];
      if (f.reason) body.reason = f.reason;
      if (!Object.keys(body).length) return setError(new Error('Change something first'));
      return act('edit', body);
    }
    if (mode === 'reject') return act('reject', { reason: f.reason, cooloff_days: Number(f.cooloff_days) });
    if (mode === 'quarantine') return act('quarantine', { reason: f.reason });
    return act('defer', undefined);
  };
  const id = `skill-${card.slug}`;
  const staged = card.status === 'staged';
  return html`<article class="card skill-card" aria-labelledby=${id} data-slug=${card.slug}>
    <h2 id=${id}>${card.name ?? card.slug}</h2>
    <p class="muted">${card.slug} · ${card.status}${card.deferred_at ? ' · deferred' : ''} · ${card.domain ?? 'no domain'} · scan ${card.scan_state ?? '—'} (${card.scan_critical} critical, ${card.scan_warn} warnings) · ${fmtDate(card.updated_at)}</p>
    <p>${card.description}</p>
    ${card.summary ? html`<p><i>${card.summary}</i></p>` : null}
    ${card.tags.length ? html`<ul class="chips">${card.tags.map((t) => html`<li>${t}</li>`)}</ul>` : null}
    ${card.content ? html`<details><summary>Content</summary><pre>${card.content}</pre></details>` : null}
    ${staged || card.status === 'quarantined' ? html`<div class="actions">
      ${staged ? html`<button type="button" disabled=${busy} onClick=${() => act('approve')}>Approve</button>
      <button type="button" class="secondary" onClick=${() => setMode('edit')}>Edit</button>` : null}
      <button type="button" class="secondary" onClick=${() => setMode('reject')}>Reject</button>
      ${staged ? html`<button type="button" class="secondary" onClick=${() => setMode('quarantine')}>Quarantine</button>
      <button type="button" class="secondary" disabled=${busy} onClick=${() => act('defer')}>Defer</button>` : null}
    </div>` : null}
    ${mode ? html`<form class="grid-form" onSubmit=${submit} aria-label=${`${mode} ${card.slug}`}>
      ${mode === 'edit' ? html`
        <${Field} label="Name"><input value=${f.name} onInput=${set('name')} /></${Field}>
        <${Field} label="Description"><textarea rows="2" value=${f.description} onInput=${set('description')} /></${Field}>
        <${Field} label="Summary"><textarea rows="2" value=${f.summary} onInput=${set('summary')} /></${Field}>
        <${Field} label="Skill content"><textarea rows="6" class="mono" value=${f.content} onInput=${set('content')} /></${Field}>` : null}
      <${Field} label=${mode === 'edit' || mode === 'defer' ? 'Reason (optional)' : 'Reason'}><input required=${mode === 'reject' || mode === 'quarantine'} value=${f.reason} onInput=${set('reason')} /></${Field}>
      ${mode === 'reject' ? html`<${Field} label="Cool-off days"><input type="number" min="1" max="365" value=${f.cooloff_days} onInput=${set('cooloff_days')} /></${Field}>` : null}
      <div class="actions"><button type="submit" disabled=${busy}>${{ edit: 'Save edit', reject: 'Confirm reject', quarantine: 'Confirm quarantine', defer: 'Confirm defer' }[mode]}</button>
        <button type="button" class="secondary" onClick=${() => setMode(null)}>Cancel</button></div>
    </form>` : null}
    <${ErrorBox} error=${error} />
  </article>`;
}

export function SkillsPage({ tenant }) {
  const [status, setStatus] = useState('staged');
  const [settings, sErr, , reloadSettings] = useLoad(() => api('GET', '/api/v1/org/settings', { query: { tenant_id: tenant } }), [tenant]);
  const enabled = settings?.skills_factory.enabled;
  const [inbox, error, loading, reload] = useLoad(
    () => (enabled ? api('GET', '/api/v1/skills-inbox/', { query: { tenant_id: tenant, status, include_content: true, limit: 100 } }) : Promise.resolve(null)),
    [tenant, status, enabled]);
  const enable = async () => {
    try {
      await api('PATCH', '/api/v1/org/settings', { query: { tenant_id: tenant }, body: { skills_factory: { enabled: true } } });
      reloadSettings();
    } catch (err) { toast(`Could not enable: ${err.message}`); }
  };
  return html`<div class="page">
    <h1>Skills inbox</h1>
    <${ErrorBox} error=${sErr} />
    ${settings && !enabled ? html`<div class="card"><p>The skills factory is off for tenant <b>${tenant}</b>: no skills are staged or reviewed.</p>
      <button type="button" onClick=${enable}>Enable the skills factory</button></div>` : null}
    ${enabled ? html`<div class="card actions">
      <${Field} label="Show"><select value=${status} onChange=${(e) => setStatus(e.target.value)}>${STATES.map((s) => html`<option value=${s}>${s === 'staged' ? 'staged (inbox)' : s}</option>`)}</select></${Field}>
      <span class="muted" aria-live="polite">${inbox ? `${inbox.count} of ${inbox.total}${inbox.truncated ? ' (more exist)' : ''}` : ''}</span></div>` : null}
    <${ErrorBox} error=${error} />
    ${loading && enabled && !inbox ? html`<${Spinner} />` : null}
    ${inbox && !inbox.items.length ? html`<p class="empty">Nothing ${status === 'staged' ? 'waiting for review' : `in state ${status}`}.</p>` : null}
    <div class="cards">${inbox?.items.map((c) => html`<${SkillCard} key=${c.slug + c.updated_at} tenant=${tenant} card=${c} onDone=${reload} />`)}</div>
  </div>`;
}
