// Forge end to end, through the public surfaces only: memories from three agents over two weeks
// → a Forge tick (the fan-out endpoint) → staged → approve → installable → `loci skills sync`
// writes the file; the same with auto-promote; the gates holding candidates back; a rejected
// fingerprint staying out for its cool-off and coming back after (the service's clock moves).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

const run = promisify(execFile);
const DAY = 86_400_000;

// One practice three agents found on their own, in their own words, plus unrelated work.
const PRACTICE = [
  { agent: 'ann', type: 'episode', daysAgo: 13, text: 'Stripe webhook deliveries to the billing service failed with 504s; raising the webhook handler timeout to 30 seconds fixed the retries.' },
  { agent: 'bob', type: 'action', daysAgo: 9, text: 'The billing webhook from Stripe kept timing out, so I increased the webhook handler timeout to 30s and the backlog drained.' },
  { agent: 'cy', type: 'decision', daysAgo: 5, text: 'We keep the Stripe webhook handler timeout at 30 seconds: shorter timeouts make Stripe retry the webhook and duplicate invoices.' },
  { agent: 'ann', type: 'action', daysAgo: 2, text: 'Stripe webhooks to billing timed out again after the deploy; set the webhook handler timeout back to 30 seconds.' },
];
const OTHER = [
  { agent: 'bob', type: 'decision', daysAgo: 6, text: 'Moved the team retro to Friday afternoon.' },
  { agent: 'cy', type: 'action', daysAgo: 3, text: 'Renewed the TLS certificate for the marketing site.' },
  { agent: 'ann', type: 'plan', daysAgo: 1, text: 'The design review for the mobile onboarding flow is next Tuesday.' },
];

describe('Forge end to end', () => {
  let t: TestApp;
  // The service's clock: the wall clock moved on by `offset` (the cool-off test moves it).
  let offset = 0;
  const syncDir = mkdtempSync(join(tmpdir(), 'loci-forge-sync-'));

  beforeAll(async () => {
    t = await startTestApp({}, { clock: () => new Date(Date.now() + offset) });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(syncDir, { recursive: true, force: true });
  });

  const enable = (tenant: string, extra: Record<string, unknown> = {}) =>
    t.api('PATCH', `/api/v1/org/settings?tenant_id=${tenant}`, { body: { skills_factory: { enabled: true, ...extra } } });
  async function remember(tenant: string, notes: { agent: string; type: string; daysAgo: number | null; text: string }[]) {
    const keys = new Map<string, string>();
    for (const n of notes) {
      if (!keys.has(n.agent)) keys.set(n.agent, await t.key(tenant, { agent: n.agent }));
      const body: Record<string, unknown> = { tenant_id: tenant, agent_id: n.agent, content: n.text, memory_type: n.type };
      // When it happened, as the agent reports it (ts_valid_start); otherwise the write time counts.
      if (n.daysAgo !== null) body.ts_valid_start = new Date(Date.now() - n.daysAgo * DAY).toISOString();
      const r = await t.api('POST', '/api/v1/memories', { key: keys.get(n.agent), body });
      expect(r.status, r.text).toBe(201);
    }
    return keys;
  }
  const tick = async (tenant: string) => {
    const r = await t.api('POST', '/admin/lifecycle/fanout/forge-distill');
    expect(r.status, r.text).toBe(200);
    return r.body.tenants.find((x: { tenant_id: string }) => x.tenant_id === tenant);
  };
  const inbox = async (tenant: string, q = '') => (await t.api('GET', `/api/v1/skills-inbox/?tenant_id=${tenant}${q}`)).body;
  const installable = async (tenant: string, key: string) =>
    (await t.api('POST', '/api/v1/skills/installable', { key, body: { tenant_id: tenant } })).body.items as { slug: string; content: string; description: string }[];

  it('memories → tick → staged → approve → installable → loci skills sync writes the file', async () => {
    const T = 'forge-stage';
    await enable(T);
    const keys = await remember(T, [...PRACTICE, ...OTHER]);
    const agentKey = keys.get('bob')!;

    const first = await tick(T);
    expect(first).toMatchObject({ ran: true, memories_scanned: 7, staged: 1, activated: 0, held: 0 });
    expect(first.skills).toEqual([expect.objectContaining({ status: 'staged', cluster_size: 4, distinct_agents: 3, failed_gates: [] })]);

    // Idempotent: the same memories make nothing new.
    const second = await tick(T);
    expect(second).toMatchObject({ ran: true, staged: 0, held: 0, unchanged: 1 });
    const list = await inbox(T, '&include_content=true');
    expect(list.count).toBe(1);
    const card = list.items[0];
    expect(card).toMatchObject({
      source: 'forge', kind: 'create', status: 'staged', scan_state: 'clean',
      forge_evidence: { cluster_size: 4, distinct_agents: 3 },
      origin: { cluster_size: 4, distinct_agents: 3, agents: ['ann', 'bob', 'cy'] },
    });
    expect(card.gates.map((g: { gate: string; passed: boolean }) => `${g.gate}:${g.passed}`)).toEqual([
      'volume:true', 'diversity:true', 'freshness:true', 'poison:true', 'scan:true', 'hash_binding:true',
    ]);
    expect(card.cites).toHaveLength(4);
    expect(card.content.toLowerCase()).toContain('webhook');
    expect(Buffer.byteLength(card.description)).toBeLessThanOrEqual(160);
    expect(card.summary).toMatch(/^Use when/);
    // A candidate or staged skill is never visible to agents.
    expect(await installable(T, agentKey)).toEqual([]);
    expect((await t.api('GET', `/api/v1/documents/skills/${card.slug}?tenant_id=${T}`, { key: agentKey })).status).toBe(404);

    expect((await t.api('POST', `/api/v1/skills-inbox/${card.slug}/approve?tenant_id=${T}`)).body.new_status).toBe('active');
    const active = await installable(T, agentKey);
    expect(active.map((s) => s.slug)).toEqual([card.slug]);

    // The agent's harness picks it up.
    const out = await run(process.execPath, ['bin/loci.js', 'skills', 'sync', '--url', t.url, '--key', agentKey], {
      env: { ...process.env, LOCI_SKILL_TARGETS: JSON.stringify([{ dir: syncDir, mode: 'owned' }]) }, timeout: 60_000,
    });
    const report = JSON.parse(out.stdout);
    expect(report.targets[0]).toMatchObject({ installed: [card.slug], added: [card.slug], error: null });
    const file = readFileSync(join(syncDir, card.slug, 'SKILL.md'), 'utf8');
    expect(file).toMatch(new RegExp(`^---\\nname: ${card.slug}\\ndescription: ".+"\\n---\\n`));
    expect(file).toContain(card.content.trim());
  });

  it('with auto_promote_clean a clean candidate that passes every gate goes live at once', async () => {
    const T = 'forge-auto';
    await enable(T, { sentinel: { auto_promote_clean: true } });
    const keys = await remember(T, PRACTICE);
    const r = await tick(T);
    expect(r).toMatchObject({ ran: true, activated: 1, staged: 0 });
    expect((await inbox(T)).count).toBe(0);
    expect((await installable(T, keys.get('ann')!)).map((s) => s.slug)).toEqual([r.skills[0].slug]);
  });

  it('holds candidates that fail a gate, and never auto-promotes an unclean one', async () => {
    // Freshness: the agents report events from a month ago (written now).
    const stale = 'forge-stale';
    await enable(stale, { sentinel: { auto_promote_clean: true } });
    const keys = await remember(stale, PRACTICE.map((n) => ({ ...n, daysAgo: n.daysAgo + 30 })));
    const r = await tick(stale);
    expect(r).toMatchObject({ held: 1, staged: 0, activated: 0 });
    expect(r.skills[0].failed_gates).toEqual(['freshness']);
    // A held candidate is checked again, not distilled again, while its memories are the same.
    const again = await tick(stale);
    expect(again).toMatchObject({ held: 0, unchanged: 1, distilled_by: { llm: 0, template: 0 } });
    expect(again.skills[0]).toMatchObject({ status: 'unchanged', failed_gates: ['freshness'] });
    expect((await inbox(stale)).count).toBe(0);
    const held = await inbox(stale, '&status=candidate');
    expect(held.items[0]).toMatchObject({ status: 'candidate', source: 'forge' });
    expect(await installable(stale, keys.get('ann')!)).toEqual([]);

    // Scan: the practice carries personal data into the skill.
    const leaky = 'forge-leaky';
    await enable(leaky, { sentinel: { auto_promote_clean: true } });
    await remember(leaky, PRACTICE.map((n) => ({ ...n, text: `Paged jane.doe@acme-payments.com: ${n.text}` })));
    const l = await tick(leaky);
    expect(l).toMatchObject({ held: 1, activated: 0 });
    expect(l.skills[0].failed_gates).toEqual(['scan']);

    // Volume and diversity: too few memories, or too few agents, are not distilled at all.
    const narrow = 'forge-narrow';
    await enable(narrow, { forge: { min_distinct_agents: 4 } });
    await remember(narrow, PRACTICE);
    const n = await tick(narrow);
    expect(n).toMatchObject({ ran: true, below_thresholds: { volume: 0, diversity: 1 }, staged: 0, held: 0 });
    await enable(narrow, { forge: { min_distinct_agents: 3, min_cluster_size: 5 } });
    expect((await tick(narrow)).below_thresholds).toEqual({ volume: 1, diversity: 0 });
  });

  it('a rejected fingerprint stays out for its cool-off and comes back after', async () => {
    const T = 'forge-poison';
    // A long freshness window: the memories stay in scope while the clock moves a month on.
    await enable(T, { forge: { freshness_window_days: 90 } });
    await remember(T, PRACTICE.map((n) => ({ ...n, daysAgo: null })));
    const first = await tick(T);
    expect(first.staged).toBe(1);
    const slug = first.skills[0].slug;
    const rej = await t.api('POST', `/api/v1/skills-inbox/${slug}/reject?tenant_id=${T}`, { body: { reason: 'we fixed the timeout upstream' } });
    expect(rej.body).toMatchObject({ new_status: 'rejected', detail: expect.stringContaining('30 day') });

    const again = await tick(T);
    expect(again).toMatchObject({ poisoned: 1, staged: 0 });
    expect((await inbox(T)).count).toBe(0);

    offset += 29 * DAY;
    expect(await tick(T)).toMatchObject({ poisoned: 1, staged: 0 });

    offset += 2 * DAY;
    const back = await tick(T);
    expect(back).toMatchObject({ poisoned: 0, staged: 1 });
    expect((await inbox(T)).items.map((c: { slug: string }) => c.slug)).toEqual([slug]);
    offset = 0;
  });

  it('runs only for admins', async () => {
    const agent = await t.key('forge-stage', { agent: 'bob' });
    expect((await t.api('POST', '/api/v1/admin/lifecycle/fanout/forge-distill', { key: agent })).status).toBe(403);
    expect((await t.api('POST', '/admin/lifecycle/fanout/forge-distill', { key: null })).status).toBe(401);
    expect(existsSync(syncDir)).toBe(true);
  });
});

describe('Forge with a language model', () => {
  let t: TestApp;
  let reply = '';
  // Test fake of the chat model: answers whatever the test sets.
  const fakeLlm = { modelId: 'fake:distiller', complete: async () => reply };
  beforeAll(async () => {
    t = await startTestApp({}, { llm: fakeLlm });
  });
  afterAll(async () => t?.close());

  it('distils with the model when its reply is usable, and falls back to the template when not', async () => {
    const T = 'forge-llm';
    await t.api('PATCH', `/api/v1/org/settings?tenant_id=${T}`, { body: { skills_factory: { enabled: true } } });
    for (const n of PRACTICE) {
      const key = await t.key(T, { agent: n.agent });
      expect((await t.api('POST', '/api/v1/memories', { key, body: { tenant_id: T, agent_id: n.agent, content: n.text, memory_type: n.type } })).status).toBe(201);
    }
    reply = 'not json at all';
    const fallback = (await t.api('POST', '/admin/lifecycle/fanout/forge-distill')).body.tenants.find((x: { tenant_id: string }) => x.tenant_id === T);
    expect(fallback).toMatchObject({ staged: 1, distilled_by: { llm: 0, template: 1 } });
    const slug = fallback.skills[0].slug;
    // Another tenant with the same practice, now with a usable reply.
    const T2 = 'forge-llm-2';
    await t.api('PATCH', `/api/v1/org/settings?tenant_id=${T2}`, { body: { skills_factory: { enabled: true } } });
    for (const n of PRACTICE) {
      const key = await t.key(T2, { agent: n.agent });
      await t.api('POST', '/api/v1/memories', { key, body: { tenant_id: T2, agent_id: n.agent, content: n.text, memory_type: n.type } });
    }
    reply = JSON.stringify({
      name: 'Raise the Stripe webhook timeout', description: 'Use when Stripe webhooks to billing time out.',
      summary: 'Use when Stripe webhook deliveries to billing fail with timeouts.', domain: 'Payments',
      content: '## When to use\nStripe webhooks time out.\n\n## Steps\n1. Set the webhook handler timeout to 30 seconds.',
    });
    const r = (await t.api('POST', '/admin/lifecycle/fanout/forge-distill')).body.tenants.find((x: { tenant_id: string }) => x.tenant_id === T2);
    expect(r).toMatchObject({ staged: 1, distilled_by: { llm: 1, template: 0 } });
    const card = (await t.api('GET', `/api/v1/skills-inbox/?tenant_id=${T2}&include_content=true`)).body.items[0];
    expect(card).toMatchObject({ slug: 'raise-the-stripe-webhook-timeout', name: 'Raise the Stripe webhook timeout', domain: 'payments', source: 'forge' });
    expect(card.content).toMatch(/^# Raise the Stripe webhook timeout/);
    expect(slug).not.toBe(card.slug);
  });
});
