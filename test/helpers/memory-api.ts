// Writing a memory and searching over HTTP, as the search and retrieval tests do: a failed call
// throws with the status and body, so a test reads as the behaviour it checks.
import type { TestApp } from './app.js';

/** POST /api/v1/memories as agent a1 of the tenant; the stored memory. */
export async function writeMemory(t: TestApp, tenant: string, content: string, extra: Record<string, unknown> = {}, key?: string) {
  const r = await t.api('POST', '/api/v1/memories', { key, body: { tenant_id: tenant, agent_id: 'a1', content, ...extra } });
  if (r.status !== 201) throw new Error(`write failed: ${r.status} ${r.text}`);
  return r.body;
}

/** POST /api/v1/search; the whole answer (items, and diagnostic when asked). */
export async function searchMemories(t: TestApp, body: Record<string, unknown>, key?: string) {
  const r = await t.api('POST', '/api/v1/search', { key, body });
  if (r.status !== 200) throw new Error(`search failed: ${r.status} ${r.text}`);
  return r.body as { items: any[]; diagnostic: any };
}
