// The dashboard shell: sign-in, identity, tenant, navigation (hash routes) and the pages.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html, Field, ErrorBox, Toasts } from './lib.js';
import { api, session, ApiError } from './api.js';
import { MemoriesPage } from './pages/memories.js';
import { IngestPage } from './pages/ingest.js';
import { GraphPage } from './pages/graph.js';
import { KeystonesPage } from './pages/keystones.js';
import { SkillsPage } from './pages/skills.js';
import { StatsPage } from './pages/stats.js';

// Each page with the least trust level that opens it.
const PAGES = [
  { id: 'memories', label: 'Memories', trust: 0, view: MemoriesPage },
  { id: 'ingest', label: 'Ingest', trust: 1, view: IngestPage },
  { id: 'graph', label: 'Graph', trust: 0, view: GraphPage },
  { id: 'keystones', label: 'Keystones', trust: 0, view: KeystonesPage },
  { id: 'skills', label: 'Skills inbox', trust: 3, view: SkillsPage },
  { id: 'stats', label: 'Stats', trust: 0, view: StatsPage },
];
const SIGNED_OUT = 'loci.signedOut';

const route = () => {
  const [path, qs] = location.hash.replace(/^#\/?/, '').split('?');
  return { page: path || 'memories', params: new URLSearchParams(qs ?? '') };
};

function SignIn({ onSignedIn, error: initial }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(initial);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    session.set(key.trim());
    try {
      const who = await api('GET', '/api/v1/whoami');
      sessionStorage.removeItem(SIGNED_OUT);
      onSignedIn(who);
    } catch (err) {
      session.clear();
      setError(err instanceof ApiError && err.status === 401 ? 'That key is unknown or revoked.' : err);
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="signin">
    <h1>Loci</h1>
    <p>Sign in with an API key. It is kept in this tab's session storage only and sent as <code>X-API-Key</code>.</p>
    <form onSubmit=${submit}>
      <${Field} label="API key"><input type="password" autocomplete="off" required value=${key}
        onInput=${(e) => setKey(e.target.value)} placeholder="loci_…" /></${Field}>
      <button type="submit" disabled=${busy}>Sign in</button>
    </form>
    <${ErrorBox} error=${error} />
  </main>`;
}

function TenantSwitch({ who, tenant, setTenant }) {
  const [tenants, setTenants] = useState([]);
  useEffect(() => {
    api('GET', '/api/v1/admin/tenants').then((r) => setTenants(r.tenants), () => setTenants([]));
  }, []);
  const all = [...new Set([who.tenant_id, ...tenants, tenant].filter(Boolean))];
  return html`<div class="tenant-switch">
    <label for="tenant-select">Tenant</label>
    <input id="tenant-select" list="tenant-list" value=${tenant}
      onChange=${(e) => e.target.value.trim() && setTenant(e.target.value.trim())} />
    <datalist id="tenant-list">${all.map((t) => html`<option value=${t} />`)}</datalist>
  </div>`;
}

function Shell({ who, onSignOut }) {
  const [r, setR] = useState(route());
  const [tenant, setTenant] = useState(who.tenant_id ?? 'default');
  const [menu, setMenu] = useState(false);
  useEffect(() => {
    const on = () => { setR(route()); setMenu(false); };
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  const allowed = PAGES.filter((p) => who.trust_level >= p.trust);
  const page = allowed.find((p) => p.id === r.page) ?? allowed[0];
  useEffect(() => { document.title = `${page.label} · Loci`; }, [page]);
  const ctx = { who, tenant, trust: who.trust_level, params: r.params, admin: who.trust_level >= 3 };
  return html`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <strong class="brand">Loci</strong>
      <button type="button" class="menu-toggle" aria-expanded=${menu} aria-controls="nav" onClick=${() => setMenu(!menu)}>Menu</button>
      <nav id="nav" aria-label="Pages" class=${menu ? 'open' : ''}>
        ${allowed.map((p) => html`<a href=${`#/${p.id}`} aria-current=${p === page ? 'page' : undefined}>${p.label}</a>`)}
      </nav>
      <div class="who">
        ${ctx.admin ? html`<${TenantSwitch} who=${who} tenant=${tenant} setTenant=${setTenant} />` : html`<span>Tenant <b>${tenant}</b></span>`}
        <span class="badge" title="Trust level of this key">trust ${who.trust_level}${who.agent_id ? ` · ${who.agent_id}` : ''}</span>
        <button type="button" class="link" onClick=${onSignOut}>Sign out</button>
      </div>
    </header>
    <main id="main" tabindex="-1"><${page.view} key=${page.id + tenant} ...${ctx} /></main>
    <${Toasts} />
  </div>`;
}

function App() {
  const [who, setWho] = useState(null);
  const [phase, setPhase] = useState('boot');
  const [error, setError] = useState(null);
  useEffect(() => {
    (async () => {
      if (session.key) {
        try {
          return setWho(await api('GET', '/api/v1/whoami')), setPhase('in');
        } catch {
          session.clear();
        }
      }
      if (!sessionStorage.getItem(SIGNED_OUT)) {
        // Standalone mode on loopback: the server hands this browser a trust-1 key of its tenant.
        try {
          const s = await api('POST', '/dashboard/session', { headers: { 'x-loci-dashboard': '1' } });
          session.set(s.key);
          return setWho(await api('GET', '/api/v1/whoami')), setPhase('in');
        } catch (err) {
          session.clear();
          if (!(err instanceof ApiError) || err.status !== 403) setError(err);
        }
      }
      setPhase('out');
    })();
  }, []);
  if (phase === 'boot') return html`<p class="boot">Loading…</p>`;
  if (phase === 'out' || !who) return html`<${SignIn} error=${error} onSignedIn=${(w) => { setWho(w); setPhase('in'); }} />`;
  const signOut = () => {
    session.clear();
    sessionStorage.setItem(SIGNED_OUT, '1');
    setWho(null);
    setPhase('out');
  };
  return html`<${Shell} who=${who} onSignOut=${signOut} />`;
}

render(html`<${App} />`, document.getElementById('root'));
