// Shared view helpers: htm bound to Preact, small form and feedback components.
import { h, cloneElement } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);

let uid = 0;
/** A labelled form control: the label is tied to the input by id (screen readers, click to focus). */
export function Field({ label, hint, children, id }) {
  const [fid] = useState(() => id ?? `f${++uid}`);
  const child = Array.isArray(children) ? children[0] : children;
  const control = child && child.props ? cloneElement(child, { id: fid }) : child;
  return html`<div class="field"><label for=${fid}>${label}</label>${control}${hint ? html`<small>${hint}</small>` : null}</div>`;
}

export function ErrorBox({ error }) {
  if (!error) return null;
  return html`<div class="error" role="alert">${String(error.message ?? error)}</div>`;
}

export function Spinner({ label = 'Loading' }) {
  return html`<span class="spinner" role="status">${label}…</span>`;
}

/** Runs an async loader on mount and whenever deps change; returns [data, error, loading, reload]. */
export function useLoad(fn, deps) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    fn().then((data) => live && setState({ data, error: null, loading: false }),
      (error) => live && setState({ data: null, error, loading: false }));
    return () => { live = false; };
  }, [...deps, tick]);
  return [state.data, state.error, state.loading, () => setTick((t) => t + 1)];
}

export const fmtDate = (s) => (s ? new Date(s).toISOString().replace('T', ' ').slice(0, 19) : '—');
export const short = (s, n = 120) => (s && s.length > n ? s.slice(0, n - 1) + '…' : s ?? '');

/** Toasts: one message at a time with an optional action (Undo). */
let toastListener = null;
export function toast(message, action) { toastListener?.({ message, action, at: Date.now() }); }
export function Toasts() {
  const [t, setT] = useState(null);
  useEffect(() => { toastListener = setT; return () => { toastListener = null; }; }, []);
  useEffect(() => {
    if (!t) return undefined;
    const id = setTimeout(() => setT(null), t.action ? t.action.ms ?? 8000 : 4000);
    return () => clearTimeout(id);
  }, [t]);
  if (!t) return html`<div class="toast-area" aria-live="polite"></div>`;
  return html`<div class="toast-area" aria-live="polite"><div class="toast">${t.message}
    ${t.action ? html`<button type="button" onClick=${() => { setT(null); t.action.run(); }}>${t.action.label}</button>` : null}</div></div>`;
}
