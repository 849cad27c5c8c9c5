// Candidate retrieval, end to end over HTTP: an update worded unlike the memory it replaces is
// found even when hundreds of memories of the same agent are nearer to it by vector, because the
// two name the same thing ("Backblaze"). The distractors talk about the same job in other ways
// and must be left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app.js';

const tenantId = `contra-candidates-${randomBytes(4).toString('hex')}`;

/** Notes about the export job that are nearer to the update by vector than the memory it replaces. */
function distractors(n: number): string[] {
  const people = ['Aino', 'Bruno', 'Chiara', 'Dmitri', 'Esme', 'Farid', 'Gwen', 'Hamza', 'Ilse', 'Joaquin', 'Keiko', 'Lars', 'Mireille'];
  const tables = ['orders', 'invoices', 'customers', 'refunds', 'sessions', 'payouts', 'coupons', 'shipments', 'reviews', 'carts', 'tickets', 'audits'];
  const forms = [
    (p: string, t: string, i: number) => `Nightly export of the ${t} table took ${i % 50 + 3} minutes on run ${i}.`,
    (p: string, t: string, i: number) => `${p} checked the nightly export logs for the ${t} table (run ${i}).`,
    (p: string, t: string, i: number) => `The ${t} export writes ${i % 30 + 2} files per night, run ${i}.`,
    (p: string, t: string, i: number) => `${p} asked for the ${t} export to skip archived rows, ticket ${1000 + i}.`,
  ];
  return Array.from({ length: n }, (_, i) => forms[i % forms.length](people[i % people.length], tables[i % tables.length], i));
}

describe('contradiction candidates among many memories (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ LOCI_LLM_URL: '' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  async function write(content: string): Promise<string> {
    const r = await t.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'agent-a', content } });
    expect(r.status, r.text).toBe(201);
    return r.body.id;
  }

  it('an update sharing a name with an older memory finds it behind 300 nearer ones', async () => {
    const older = await write('The nightly export lands in the Backblaze bucket.');
    const notes = distractors(300);
    for (let i = 0; i < notes.length; i += 100) {
      const r = await t.api('POST', '/api/v1/memories/bulk', {
        headers: { 'x-bulk-attempt-id': `${tenantId}-${i}` },
        body: { tenant_id: tenantId, agent_id: 'agent-a', items: notes.slice(i, i + 100).map((content) => ({ content })) },
      });
      expect(r.status, r.text).toBe(200);
    }
    const newer = await write('Nightly export now writes to S3 instead of Backblaze.');
    await t.services.bus.drain(300_000);

    const o = await t.api('GET', `/api/v1/memories/${older}?tenant_id=${tenantId}`);
    expect(o.body.status).toBe('outdated');
    const n = await t.api('GET', `/api/v1/memories/${newer}?tenant_id=${tenantId}`);
    expect(n.body.supersedes_id).toBe(older);
    const f = await t.api('GET', `/api/v1/memories/${newer}/contradictions?tenant_id=${tenantId}`);
    expect(f.body.contradictions).toEqual([expect.objectContaining({ id: older, reason: 'rdf_conflict', direction: 'supersedes' })]);
  }, 600_000);
});
