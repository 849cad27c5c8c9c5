// URL ingest over HTTP through the SSRF guard. The allowed "public" site is a local server on
// 127.0.0.2, named by LOCI_FETCH_ALLOW; a second server on 127.0.0.1 plays the private target
// and must never receive a request. No network beyond loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { storedCounts, commitPreview, runContents } from '../helpers/ingest.js';
import { makeHtml, makePdf } from '../fixtures/make-fixtures.js';

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((ok) => server.listen(0, host, ok));
  const addr = server.address();
  return typeof addr === 'object' && addr ? addr.port : 0;
}

describe('URL ingest', () => {
  let t: TestApp;
  let site: Server;
  let secret: Server;
  let base: string;
  let privateUrl: string;
  const secretHits: string[] = [];
  const preview = (url: string) => t.api('POST', '/api/v1/ingest/preview', { body: { tenant_id: 'default', url, include_content: true } });

  beforeAll(async () => {
    secret = createServer((req, res) => {
      secretHits.push(req.url ?? '');
      res.end('The private admin token is hunter2 and must never leave this host.');
    });
    privateUrl = `http://127.0.0.1:${await listen(secret, '127.0.0.1')}/admin`;

    const pdf = makePdf(['Quarterly revenue rose by nine percent in Lisbon.', 'The finance team closed the books on the fifth of April.']);
    site = createServer((req, res) => {
      const path = req.url ?? '/';
      if (path === '/article') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(makeHtml());
      }
      if (path === '/report.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end(pdf);
      }
      if (path === '/files/report.pdf') {
        // A generic type: the file name and the bytes decide.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(pdf);
      }
      if (path === '/moved') {
        res.writeHead(302, { location: '/article' });
        return res.end();
      }
      if (path === '/to-private') {
        res.writeHead(302, { location: privateUrl });
        return res.end();
      }
      if (path === '/to-metadata') {
        res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      }
      if (path === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(Buffer.alloc(t.config.ingestMaxBytes + 10, 'a'));
      }
      if (path === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(256 * 1024, 'word ');
        let sent = 0;
        const pump = () => {
          while (sent < t.config.ingestMaxBytes + chunk.length) {
            sent += chunk.length;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      if (path === '/slow') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('The first words arrive ');
        return; // and nothing more, until the fetch gives up
      }
      if (path === '/image') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
    });
    base = `http://127.0.0.2:${await listen(site, '127.0.0.2')}`;
    t = await startTestApp({ LOCI_FETCH_ALLOW: '127.0.0.2', LOCI_FETCH_TIMEOUT_MS: '1500' });
  });
  afterAll(async () => {
    await t?.close();
    site?.closeAllConnections();
    secret?.closeAllConnections();
    await new Promise((ok) => site?.close(ok));
    await new Promise((ok) => secret?.close(ok));
  });

  it('ingests the main content of an allowed page, following a redirect', async () => {
    const before = await storedCounts(t);
    const r = await preview(`${base}/moved`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ url: `${base}/article`, format: 'html', title: 'Field notes on the Orion migration' });
    const facts = r.body.facts.map((f: { content: string }) => f.content);
    expect(facts).toContain('The Orion cluster was moved from the Frankfurt region to Dublin in March 2024 after a two-week freeze.');
    expect(facts.join('\n')).not.toMatch(/Home|About us|cookies|Related posts|Copyright/);
    expect(r.body.facts.every((f: { source_uri: string }) => f.source_uri === `${base}/article`)).toBe(true);
    expect(await storedCounts(t)).toEqual(before);

    const c = await commitPreview(t, r.body, { url: r.body.url });
    expect(c.status).toBe(200);
    const list = await t.api('GET', `/api/v1/memories?tenant_id=default&run_id=${c.body.run_id}`);
    expect(list.body.items.every((m: { source_uri: string }) => m.source_uri === `${base}/article`)).toBe(true);
    const doc = await t.api('GET', `/api/v1/documents/ingest-sources/${c.body.run_id}?tenant_id=default`);
    expect(doc.body.data).toMatchObject({ url: `${base}/article`, content_source: 'request' });
    expect((await t.api('POST', `/api/v1/ingest/undo/${c.body.run_id}?tenant_id=default`)).body.deleted).toBe(c.body.memories_created);
  });

  it('dispatches on the response content type, or on the file name when it is generic', async () => {
    for (const path of ['/report.pdf', '/files/report.pdf']) {
      const r = await preview(base + path);
      expect(r.status).toBe(200);
      expect(r.body.format).toBe('pdf');
      expect(r.body.facts.map((f: { content: string }) => f.content)).toContain('Quarterly revenue rose by nine percent in Lisbon.');
    }
    const c = await commitPreview(t, (await preview(`${base}/report.pdf`)).body);
    expect(await runContents(t, c.body.run_id)).toContain('The finance team closed the books on the fifth of April.');
    await t.api('POST', `/api/v1/ingest/undo/${c.body.run_id}?tenant_id=default`);
    const image = await preview(`${base}/image`);
    expect(image.status).toBe(415);
  });

  it('refuses private, loopback, link-local and metadata addresses, directly or by redirect, and writes nothing', async () => {
    const before = await storedCounts(t);
    const port = new URL(base).port;
    const refused = [
      privateUrl,                                   // loopback literal
      'http://169.254.169.254/latest/meta-data/',   // cloud metadata
      `${base}/to-private`,                         // allowed host redirecting to a private address
      `${base}/to-metadata`,
      `http://localhost:${new URL(privateUrl).port}/admin`, // a name that resolves to loopback
      `http://[::1]:${port}/article`,
      `http://[::ffff:127.0.0.1]:${new URL(privateUrl).port}/admin`,
      `http://2130706433:${new URL(privateUrl).port}/admin`, // 127.0.0.1 as one number
      'http://10.1.2.3/',
      'http://192.168.0.1/',
    ];
    for (const url of refused) {
      const r = await preview(url);
      expect(r.status, url).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url_blocked' });
    }
    expect(secretHits).toEqual([]);
    expect(await storedCounts(t)).toEqual(before);
  });

  it('fetches only http and https URLs', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.2/x', 'gopher://127.0.0.2/', 'not a url', `http://user:pw@127.0.0.2:${new URL(base).port}/article`]) {
      const r = await preview(url);
      expect(r.status, url).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url_parsing' });
    }
  });

  it('caps the fetched size at 3 MB (413), bounds the time (504) and reports upstream errors (502)', async () => {
    const before = await storedCounts(t);
    for (const path of ['/big', '/big-chunked']) {
      const r = await preview(base + path);
      expect(r.status, path).toBe(413);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
    }
    const slow = await preview(`${base}/slow`);
    expect(slow.status).toBe(504);
    const missing = await preview(`${base}/nothing-here`);
    expect(missing.status).toBe(502);
    expect(missing.body.upstream_status).toBe(404);
    expect(await storedCounts(t)).toEqual(before);
  });
});
