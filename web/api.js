// The API client: the key lives in sessionStorage (never in a URL), every call sends it as X-API-Key.
const STORE = 'loci.key';

export const session = {
  get key() { return sessionStorage.getItem(STORE); },
  set(key) { sessionStorage.setItem(STORE, key); },
  clear() { sessionStorage.removeItem(STORE); },
};

export class ApiError extends Error {
  constructor(status, body) {
    const detail = Array.isArray(body?.detail)
      ? body.detail.map((d) => `${(d.loc ?? []).slice(1).join('.') || 'request'}: ${d.msg}`).join('; ')
      : body?.detail ?? body?.title ?? `HTTP ${status}`;
    super(detail);
    this.status = status;
    this.body = body;
  }
}

/** Calls the API. `query` values that are undefined or '' are left out; arrays repeat the parameter. */
export async function api(method, path, { query, body, form, headers = {}, keepalive } = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(one));
  }
  const h = { ...headers };
  if (session.key) h['x-api-key'] = session.key;
  let payload;
  if (form) payload = form;
  else if (body !== undefined) {
    h['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(url, { method, headers: h, body: payload, keepalive });
  const text = await res.text();
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = text; }
  if (!res.ok) throw new ApiError(res.status, parsed);
  return parsed;
}
