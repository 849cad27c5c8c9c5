// Requests shaped the way Caura's clients send them (the TypeScript client in clients/typescript,
// the OpenClaw plugin's transport in plugin/src and docs/integration-without-plugin.md): the
// same paths, query parameters, body fields and headers, written here from reading them.
export interface Sent {
  status: number;
  body: any;
  headers: Headers;
}

export interface CauraWire {
  /** Caura's TypeScript client: every request carries X-API-Key and a JSON content type. */
  client(method: string, path: string, body?: unknown): Promise<Sent>;
  /**
   * The plugin's apiCall: a resource path under /api/v1, string query parameters, X-API-Key only
   * when a key is configured, extra headers (X-Bulk-Attempt-Id) last.
   */
  plugin(method: string, path: string, opts?: { body?: Record<string, unknown>; query?: Record<string, unknown>; headers?: Record<string, string> }): Promise<Sent>;
}

async function send(url: string, init: RequestInit): Promise<Sent> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

export function cauraWire(base: string, key: string | null, header: 'x-api-key' | 'bearer' = 'x-api-key'): CauraWire {
  const auth = (): Record<string, string> =>
    key == null ? {} : header === 'bearer' ? { authorization: `Bearer ${key}` } : { 'X-API-Key': key };
  return {
    client: (method, path, body) => send(base + path, {
      method, headers: { ...auth(), 'Content-Type': 'application/json' }, body: body !== undefined ? JSON.stringify(body) : undefined,
    }),
    plugin: (method, path, opts = {}) => {
      const url = new URL(`/api/v1${path}`, base);
      // The plugin stringifies every defined, non-null value (String(v)); undefined body fields vanish in JSON.
      for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = {};
      if (opts.body) headers['Content-Type'] = 'application/json';
      Object.assign(headers, auth(), opts.headers ?? {});
      return send(url.toString(), { method, headers, body: opts.body ? JSON.stringify(opts.body) : undefined });
    },
  };
}

/** The plugin's tenant lookup at start: POST /auth/verify with the key in the body and no key header. */
export const verifyKey = (base: string, key: string) =>
  send(new URL('/api/v1/auth/verify', base).toString(), {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key }),
  });

/** What the plugin makes of a search answer: `items`, else `results`, else a bare list. */
export function searchItems(body: any): any[] {
  if (Array.isArray(body)) return body;
  const list = body?.items ?? body?.results;
  return Array.isArray(list) ? list : [];
}
