// Updates as agents write them, end to end over HTTP: terse `key: value` notes, a role handed over,
// a host or tool replaced, a price, limit, date or size revised, "no longer", a pronoun that stands
// for a name given earlier, one sentence inside a longer note; and look-alikes that must change
// nothing (another instance, another attribute, a plan, history, a relative, a restatement,
// another occasion). The phrasings were written for this test, not taken from the rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app.js';

const run = randomBytes(4).toString('hex');

const UPDATES: Array<[string, string, string]> = [
  ['Owner of the on-call rota: Felix', 'On-call rota owner: Greta', 'terse key: value, key reworded'],
  ['Lena runs the weekly release.', 'Lena handed the weekly release over to Marek.', 'role handed over'],
  ['We host the docs on Netlify.', 'The docs moved from Netlify to Cloudflare Pages.', 'host replaced, first person then third'],
  ['The Team plan is $12 per user per month.', 'Team plan price is now $15 per user per month.', 'price revised with "now"'],
  ['Upload limit for attachments is 20 MB.', 'Attachment upload limit raised to 50 MB.', 'limit raised'],
  ['Payroll runs on the 25th of each month.', 'From next month payroll runs on the 28th.', 'date moved "from next month"'],
  ['I use Notion for my notes.', 'I no longer use Notion; my notes live in Obsidian now.', '"no longer"'],
  ['The API gateway is Kong 2.8.', 'Bumped the API gateway to Kong 3.4.', 'version bumped'],
  ['Carmen works at Shopify.', 'Carmen left Shopify and joined Figma.', 'employer replaced'],
  [
    "Notes from Tuesday's sync: the auth service is owned by team Blue. Deploys happen on Wednesdays. The on-call phone is with Ravi.",
    'Auth service ownership moved to team Green.',
    'one sentence inside a longer note',
  ],
  ['Ingrid lives in Oslo.', 'Caught up with Ingrid; she moved to Bergen in the spring.', 'pronoun for a name given before'],
  ['The staging database has 4 vCPUs.', 'We resized the staging database to 8 vCPUs.', 'size revised'],
  ['Support inbox is triaged by Omar.', 'Omar passed support triage on to Lucia.', 'a duty passed on'],
  ['Preferred IDE: IntelliJ', 'Preferred IDE: Zed', 'a key that holds one value'],
  ['Transactional email goes through SendGrid.', 'We dropped SendGrid and now send transactional email with Postmark.', 'vendor dropped, the new one named'],
  ['The free plan includes 2 seats.', 'Free plan seat limit increased to 4 seats.', 'a limit on the same counted thing'],
  ['The data team has 11 people.', 'The data team is down to 9 people.', 'a figure "down to"'],
  ['Retro notes: good sprint, deploys were smooth. The retro facilitator is Hugo.', 'Retro facilitator is now Signe.', 'one sentence of a note with a lead-in'],
  ['The search cluster runs Elasticsearch 7.17.', 'ES upgraded to 8.11 on the search cluster.', 'abbreviated name'],
  ['Office printer password: tulip19', 'New office printer password: cedar88', 'a "new" key'],
];

const LOOKALIKES: Array<[string, string, string]> = [
  ['Owner of the on-call rota: Felix', 'Owner of the release calendar: Greta', 'another thing owned'],
  ['Lena runs the weekly release.', 'Lena also runs the monthly security review.', 'a second responsibility'],
  ['We host the docs on Netlify.', 'We host the marketing site on Vercel.', 'another site'],
  ['The Team plan is $12 per user per month.', 'The Business plan is $25 per user per month.', 'another product tier'],
  ['Upload limit for attachments is 20 MB.', 'Upload limit for avatars is 2 MB.', 'another kind of upload'],
  ['I use Notion for my notes.', "I'm thinking about trying Obsidian for my notes.", 'a plan'],
  ['Carmen works at Shopify.', 'Carmen worked at Stripe before she joined Shopify.', 'history'],
  ['Ingrid lives in Oslo.', "Ingrid's brother lives in Bergen.", 'a relative'],
  ['The staging database has 4 vCPUs.', 'The production database has 16 vCPUs.', 'another environment'],
  ['Carmen works at Shopify.', 'Carmen is learning Japanese.', 'another attribute'],
  ['The meeting room holds 12 people.', 'The meeting room holds a dozen people.', 'the same fact in other words'],
  ['In March the build took 20 minutes.', 'In June the build took 12 minutes.', 'another time'],
  ['Last iteration the team shipped 6 features.', 'This iteration the team shipped 4 features.', 'another period'],
  ['The production cluster runs Kubernetes 1.28.', 'The staging K8s cluster runs 1.30.', 'another environment, abbreviated'],
  ['Preferred IDE: IntelliJ', 'Preferred terminal: iTerm', 'another key'],
  ['Support inbox is triaged by Omar.', 'Omar also triages the security inbox.', 'a second duty'],
  ['Weekly sync is at 11:00.', 'On Thursday the weekly sync is at 14:00 because of the offsite.', 'one occasion'],
  ['The office is on Baker Street.', 'The Leeds office is on Park Row.', 'a named office'],
];

describe('contradictions in agent phrasings (HTTP)', () => {
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ LOCI_LLM_URL: '' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  async function write(tenantId: string, content: string): Promise<string> {
    const r = await t.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'agent-a', content } });
    expect(r.status, r.text).toBe(201);
    return r.body.id;
  }

  /** Writes each pair into its own tenant, older first, then drains the bus once. */
  async function writePairs(pairs: Array<[string, string, string]>) {
    const out: Array<{ tenantId: string; older: string; newer: string; what: string }> = [];
    for (const [older, newer, what] of pairs) {
      const tenantId = `agent-phrasing-${run}-${++n}`;
      out.push({ tenantId, older: await write(tenantId, older), newer: await write(tenantId, newer), what });
    }
    await t.services.bus.drain(120_000);
    return out;
  }

  async function row(tenantId: string, id: string) {
    const r = await t.api('GET', `/api/v1/memories/${id}?tenant_id=${tenantId}`);
    expect(r.status, r.text).toBe(200);
    return r.body;
  }

  it('an update outdates the older memory and links the newer one to it', async () => {
    for (const p of await writePairs(UPDATES)) {
      const older = await row(p.tenantId, p.older);
      const newer = await row(p.tenantId, p.newer);
      expect(older.status, p.what).toBe('outdated');
      expect(newer.status, p.what).toBe('active');
      expect(newer.supersedes_id, p.what).toBe(p.older);
      const f = await t.api('GET', `/api/v1/memories/${p.newer}/contradictions?tenant_id=${p.tenantId}`);
      expect(f.body.contradictions, p.what).toEqual([expect.objectContaining({ id: p.older, reason: 'rdf_conflict', direction: 'supersedes' })]);
    }
  }, 300_000);

  it('a look-alike changes neither memory', async () => {
    for (const p of await writePairs(LOOKALIKES)) {
      for (const id of [p.older, p.newer]) {
        const r = await row(p.tenantId, id);
        expect(r.status, p.what).toBe('active');
        expect(r.supersedes_id, p.what).toBeNull();
      }
    }
  }, 300_000);
});
