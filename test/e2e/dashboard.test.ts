// The dashboard end to end: a real server, the system's Chromium driven by playwright-core.
// One server and one browser for the whole file; screenshots of each page go to test-artifacts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { artifactsDir, findChromium } from '../helpers/browser.js';

const executable = findChromium();
if (!executable) console.warn('\n*** SKIPPED browser tests: chromium not found (apt-get install chromium, or set LOCI_CHROMIUM) ***\n');

describe.skipIf(!executable)('dashboard in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  const shots = artifactsDir();
  const shot = (name: string, p = page) => p.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const errors: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    browser = await chromium.launch({ executablePath: executable!, args: ['--no-sandbox', '--disable-dev-shm-usage', '--use-gl=swiftshader', '--enable-unsafe-swiftshader'] });
    ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signIn(p: Page, key: string) {
    await p.goto(t.url + '/');
    // Standalone on loopback opens straight in; sign out first to use the key given.
    await p.getByRole('button', { name: 'Sign out' }).or(p.getByLabel('API key')).first().waitFor();
    if (await p.getByRole('button', { name: 'Sign out' }).isVisible()) await p.getByRole('button', { name: 'Sign out' }).click();
    await p.getByLabel('API key').fill(key);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('button', { name: 'Sign out' }).waitFor();
  }

  it('opens straight in on loopback in standalone mode, at trust 1', async () => {
    await page.goto(t.url + '/');
    await page.getByText('trust 1').waitFor();
    await expect(page.getByRole('link', { name: 'Memories' }).isVisible()).resolves.toBe(true);
    expect(await page.getByRole('link', { name: 'Skills inbox' }).count()).toBe(0);
    const key = await page.evaluate('sessionStorage.getItem("loci.key")') as string | null;
    expect(key).toMatch(/^loci_/);
    expect(page.url()).not.toContain(key!);
  });

  it('signs in with an admin key; write → find → edit → contradiction → delete with undo', async () => {
    await signIn(page, t.adminKey);
    await page.getByText('trust 3').waitFor();
    const write = async (text: string) => {
      if (!(await page.locator('details.write[open]').count())) await page.getByText('Write a memory').click();
      await page.locator('details.write').getByLabel('Content').fill(text);
      await page.getByRole('button', { name: 'Write', exact: true }).click();
      await page.getByText('Memory written.').waitFor();
    };
    await write('Ivan lives in Oslo.');
    await write('Ivan enjoys long walks.');

    // Find it.
    await page.getByLabel('Query').fill('Ivan walks');
    await page.getByLabel('Per-leg diagnostics').check();
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByText('Timings (ms)').waitFor();
    const results = page.locator('.results table');
    await results.getByRole('button', { name: /Ivan enjoys long walks/ }).click();

    // Edit: the new content contradicts the older memory.
    const detail = page.locator('aside.detail');
    await detail.getByLabel('Content').fill('Ivan moved to Bergen.');
    await detail.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Memory saved.').waitFor();
    await detail.locator('.content', { hasText: 'Ivan moved to Bergen.' }).waitFor();
    await expect.poll(async () => {
      await detail.getByRole('button', { name: 'Refresh' }).click();
      return detail.locator('.contradictions').textContent();
    }, { timeout: 30_000, interval: 1000 }).toContain('Ivan lives in Oslo.');
    await shot('memories-detail');

    // Delete, undo, delete for good.
    const id = await page.locator('tr.selected').first().getAttribute('data-id');
    await detail.getByRole('button', { name: 'Delete memory' }).click();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Delete undone.').waitFor();
    expect((await t.api('GET', `/api/v1/memories/${id}?tenant_id=default`)).status).toBe(200);
    await page.locator('aside.detail').getByRole('button', { name: 'Delete memory' }).click();
    await expect.poll(async () => (await t.api('GET', `/api/v1/memories/${id}?tenant_id=default`)).status, { timeout: 15_000 }).toBe(404);
    await shot('memories');
  });

  it('has no page errors', () => {
    expect(errors).toEqual([]);
  });
});
