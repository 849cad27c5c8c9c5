// Document extraction has one global cap: uploads beyond the workers and their short queue are
// refused at once with 503 and Retry-After, instead of each starting a worker thread of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { upload } from '../helpers/ingest.js';
import { makePdf } from '../fixtures/make-fixtures.js';
import type { Gate } from '../../src/infra/gate.js';

describe('extraction capacity', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOCI_EXTRACT_WORKERS: '1' });
  });
  afterAll(async () => t?.close());

  it('runs at most LOCI_EXTRACT_WORKERS extractions at once; beyond the queue: 503 with Retry-After', async () => {
    // Watch the service's places (the ingest service's extraction gate).
    const gate = (t.services.ingest as unknown as { deps: { limits: { workers: Gate } } }).deps.limits.workers;
    expect(gate.size).toBe(1);
    let active = 0;
    let most = 0;
    const enter = gate.enter.bind(gate);
    gate.enter = async () => {
      const leave = await enter();
      most = Math.max(most, ++active);
      return () => {
        active--;
        leave();
      };
    };
    const pdf = makePdf(['The capacity test document has one sentence that is long enough to be a fact.']);
    const answers = await Promise.all(Array.from({ length: 10 }, () =>
      upload(t, { data: pdf, type: 'application/pdf', filename: 'cap.pdf' }, { tenant_id: 'default' })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 503), statuses.join(',')).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5); // one running, four queued
    const busy = answers.find((a) => a.status === 503);
    expect(busy, statuses.join(',')).toBeDefined();
    expect(busy!.headers.get('retry-after')).toBe('2');
    expect(busy!.headers.get('content-type')).toContain('application/problem+json');
    expect(most).toBe(1);
    // Once the queue drains, uploads go through again.
    expect((await upload(t, { data: pdf, type: 'application/pdf', filename: 'cap.pdf' }, { tenant_id: 'default' })).status).toBe(200);
  });
});
