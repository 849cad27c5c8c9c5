// The SSRF-safe fetcher against local servers, with an injected resolver standing in for DNS:
// names resolving to private addresses, rebinding answers, redirects, literals in every
// spelling, size and time limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { FetchError, isBlockedAddress, safeFetch, type Resolver, type SafeFetchOptions } from '../../src/providers/fetch.js';
import { errorCode } from '../helpers/error-code.js';

let server: Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(`${req.headers.host} ${path}`);
    if (path === '/hello') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('hello from the pinned address');
    }
    if (path.startsWith('/redirect?to=')) {
      res.writeHead(302, { location: decodeURIComponent(path.slice('/redirect?to='.length)) });
      return res.end();
    }
    if (path === '/loop') {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    if (path === '/gzip-bomb') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      return res.end(gzipSync(Buffer.alloc(5_000_000, 'a')));
    }
    if (path === '/stall') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.write('partial');
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const a = server.address();
  port = typeof a === 'object' && a ? a.port : 0;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

// Fake DNS: every name resolves to the records given here.
const dns = (records: Record<string, string[]>): Resolver => async (host) => {
  const addrs = records[host];
  if (!addrs) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
  return addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const opts = (o: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({ maxBytes: 1_000_000, timeoutMs: 2000, ...o });

const codeOf = (p: Promise<unknown>) => errorCode(p, FetchError);

describe('isBlockedAddress', () => {
  it('blocks everything outside public unicast space', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
      '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip',
      // IPv4 inside IPv6 beyond the plain mapped form: compatible, NAT64, 6to4, Teredo, SIIT.
      '::127.0.0.1', '::7f00:1', '::8.8.8.8', '::a00:1', '64:ff9b::7f00:1', '64:ff9b:1::a00:1', '2002:7f00:1::1', '2001::1', '::ffff:0:127.0.0.1']) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isBlockedAddress(ip), ip).toBe(false);
  });
});

describe('safeFetch', () => {
  it('refuses a name that resolves to a private address', async () => {
    const before = hits.length;
    expect(await codeOf(safeFetch(`http://intranet.example:${port}/hello`, opts({ resolve: dns({ 'intranet.example': ['127.0.0.1'] }) })))).toBe('blocked_address');
    expect(await codeOf(safeFetch(`http://meta.example:${port}/hello`, opts({ resolve: dns({ 'meta.example': ['169.254.169.254'] }) })))).toBe('blocked_address');
    // One private record among public ones is enough to refuse (no rebinding by multiple answers).
    expect(await codeOf(safeFetch(`http://mixed.example:${port}/hello`, opts({ resolve: dns({ 'mixed.example': ['93.184.216.34', '10.0.0.8'] }) })))).toBe('blocked_address');
    expect(hits.length).toBe(before);
  });

  it('connects to the address it checked, once resolved', async () => {
    let lookups = 0;
    const resolve: Resolver = async (host) => {
      lookups++;
      // A rebinding resolver: a different answer on every call after the first.
      return [{ address: lookups === 1 ? '127.0.0.1' : '10.9.9.9', family: 4 }];
    };
    const r = await safeFetch(`http://pinned.example:${port}/hello`, opts({ resolve, allowList: ['127.0.0.1'] }));
    expect(r).toMatchObject({ status: 200, contentType: 'text/plain; charset=utf-8' });
    expect(r.body.toString()).toBe('hello from the pinned address');
    expect(lookups).toBe(1);
    expect(hits.at(-1)).toBe(`pinned.example:${port} /hello`);
  });

  it('allows private targets named by the allow-list: host, wildcard, address or range', async () => {
    const resolve = dns({ 'docs.corp.example': ['127.0.0.1'], 'wiki.corp.example': ['127.0.0.1'] });
    for (const allowList of [['docs.corp.example'], ['*.corp.example'], ['127.0.0.1'], ['127.0.0.0/8']]) {
      expect((await safeFetch(`http://docs.corp.example:${port}/hello`, opts({ resolve, allowList }))).status, allowList[0]).toBe(200);
    }
    expect(await codeOf(safeFetch(`http://wiki.corp.example:${port}/hello`, opts({ resolve, allowList: ['docs.corp.example'] })))).toBe('blocked_address');
    expect(await codeOf(safeFetch(`http://docs.corp.example:${port}/hello`, opts({ resolve, allowList: ['10.0.0.0/8'] })))).toBe('blocked_address');
  });

  it('checks IP literals in every spelling before connecting', async () => {
    const before = hits.length;
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '2130706433', '0x7f000001', '127.1', '0177.0.0.1', '169.254.169.254', '[fe80::1]',
      '[::127.0.0.1]', '[::7f00:1]', '[64:ff9b::127.0.0.1]', '[::ffff:0:127.0.0.1]']) {
      expect(await codeOf(safeFetch(`http://${host}:${port}/hello`, opts())), host).toBe('blocked_address');
    }
    expect(hits.length).toBe(before);
  });

  it('never names a resolved address in an error', async () => {
    for (const address of ['127.0.0.1', '::127.0.0.1', '::ffff:10.1.2.3', '64:ff9b::a01:203']) {
      const err = await safeFetch(`http://inside.example:${port}/hello`, opts({ resolve: dns({ 'inside.example': [address] }) })).catch((e) => e);
      expect(err).toBeInstanceOf(FetchError);
      expect(err.code).toBe('blocked_address');
      expect(err.message).not.toMatch(/\d+\.\d+\.\d+|::|[0-9a-f]+:[0-9a-f]+/i);
    }
    // A connection refused by a public-looking address names only the error code.
    const refused = await safeFetch('http://refused.example:1/', opts({ resolve: dns({ 'refused.example': ['127.0.0.1'] }), allowList: ['refused.example'] }))
      .catch((e) => e);
    expect(refused.code).toBe('network_error');
    expect(refused.message).not.toContain('127.0.0.1');
  });

  it('re-checks every redirect hop', async () => {
    const resolve = dns({ 'public.example': ['127.0.0.1'], 'internal.example': ['10.0.0.5'] });
    const allowList = ['public.example'];
    const via = (to: string) => `http://public.example:${port}/redirect?to=${encodeURIComponent(to)}`;
    expect(await codeOf(safeFetch(via(`http://127.0.0.1:${port}/hello`), opts({ resolve, allowList })))).toBe('blocked_address');
    expect(await codeOf(safeFetch(via('http://169.254.169.254/latest/meta-data/'), opts({ resolve, allowList })))).toBe('blocked_address');
    expect(await codeOf(safeFetch(via(`http://internal.example:${port}/hello`), opts({ resolve, allowList })))).toBe('blocked_address');
    expect(await codeOf(safeFetch(via('file:///etc/passwd'), opts({ resolve, allowList })))).toBe('bad_scheme');
    const ok = await safeFetch(via('/hello'), opts({ resolve, allowList }));
    expect(ok.url).toBe(`http://public.example:${port}/hello`);
    expect(await codeOf(safeFetch(`http://public.example:${port}/loop`, opts({ resolve, allowList })))).toBe('too_many_redirects');
  });

  it('fetches only plain http(s) URLs', async () => {
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'data:text/plain,hi', 'javascript:alert(1)']) {
      expect(await codeOf(safeFetch(url, opts())), url).toBe('bad_scheme');
    }
    expect(await codeOf(safeFetch('http://user:pass@example.com/', opts()))).toBe('bad_url');
    expect(await codeOf(safeFetch('not a url', opts()))).toBe('bad_url');
  });

  it('limits size (inflated bodies included), time, and reports DNS and HTTP errors', async () => {
    const resolve = dns({ 'site.example': ['127.0.0.1'] });
    const o = (x: Partial<SafeFetchOptions> = {}) => opts({ resolve, allowList: ['site.example'], ...x });
    expect(await codeOf(safeFetch(`http://site.example:${port}/hello`, o({ maxBytes: 5 })))).toBe('too_large');
    expect(await codeOf(safeFetch(`http://site.example:${port}/gzip-bomb`, o()))).toBe('too_large');
    expect(await codeOf(safeFetch(`http://site.example:${port}/stall`, o({ timeoutMs: 300 })))).toBe('timeout');
    expect(await codeOf(safeFetch(`http://nowhere.example:${port}/hello`, o()))).toBe('dns_error');
    const missing = safeFetch(`http://site.example:${port}/missing`, o());
    await expect(missing).rejects.toMatchObject({ code: 'http_error', status: 404 });
  });
});
