// SSRF-safe URL fetch for URL ingest. A URL from a client must not reach the service's own
// network: loopback, private, link-local (cloud metadata at 169.254.169.254), CGNAT,
// multicast and the other special ranges are refused unless the operator's allow-list names
// the host or address.
//
// How: an undici Agent whose `connect.lookup` resolves the name once, checks every address
// and hands the socket exactly the checked address (no second resolution to rebind). The hook
// is not called for IP-literal hosts, so those are checked before the request; redirects are
// never followed by the client but re-checked and re-issued here, hop by hop.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { pipeline, type Readable, type Transform } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';

export type FetchErrorCode =
  | 'bad_url'
  | 'bad_scheme'
  | 'blocked_address'
  | 'dns_error'
  | 'network_error'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'http_error';

export class FetchError extends Error {
  readonly code: FetchErrorCode;
  /** HTTP status for `http_error`. */
  readonly status?: number;
  constructor(code: FetchErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'FetchError';
    this.code = code;
    if (status !== undefined) this.status = status;
  }
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface SafeFetchOptions {
  /** Hosts or addresses that may be private: hostnames (`*.corp.example` for subdomains), IPs or CIDRs. */
  allowList?: string[];
  maxBytes: number;
  /** Total time for all hops and the body. */
  timeoutMs: number;
  maxRedirects?: number;
  /** DNS resolution (tests substitute one); defaults to the system resolver. */
  resolve?: Resolver;
  userAgent?: string;
}

export interface SafeFetchResult {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * An IPv6 text's trailing dotted quad as two hex groups: ipaddr.js reads `::a.b.c.d` as the
 * mapped `::ffff:a.b.c.d`, while the socket (and the URL parser, which writes `::7f00:1`)
 * takes it as the IPv4-compatible address it is.
 */
const hexQuad = (v6: string) =>
  v6.replace(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, (_m, a, b, c, d) =>
    `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);

function parseIp(text: string): Addr | undefined {
  let bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (bare.includes(':')) bare = hexQuad(bare);
  if (!ipaddr.isValid(bare)) return undefined;
  const addr = ipaddr.parse(bare);
  // ::ffff:a.b.c.d reaches the IPv4 host a.b.c.d: judge it as that.
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}

/**
 * True for every address outside public unicast space (ipaddr.js special ranges), and for every
 * IPv6 address that carries an IPv4 one in its low 32 bits without being plain mapped (judged
 * as that IPv4 address above): IPv4-compatible `::a.b.c.d` (a unicast range to ipaddr.js, yet
 * some stacks route it to the IPv4 host), NAT64, 6to4 and Teredo are refused outright.
 */
export function isBlockedAddress(ip: string): boolean {
  const addr = parseIp(ip);
  if (!addr || addr.range() !== 'unicast') return true;
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0);
}

interface AllowRules {
  hosts: Set<string>;
  suffixes: string[];
  ranges: Array<[Addr, number]>;
}

const normHost = (h: string) => h.toLowerCase().replace(/\.$/, '');

function compileAllowList(entries: string[] = []): AllowRules {
  const rules: AllowRules = { hosts: new Set(), suffixes: [], ranges: [] };
  for (const raw of entries) {
    const entry = raw.trim();
    if (!entry) continue;
    if (entry.includes('/') && ipaddr.isValidCIDR(entry)) {
      const [addr, bits] = ipaddr.parseCIDR(entry);
      rules.ranges.push([addr, bits]);
      continue;
    }
    const ip = parseIp(entry);
    if (ip) rules.ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
    else if (entry.startsWith('*.')) rules.suffixes.push(normHost(entry.slice(1)));
    else rules.hosts.add(normHost(entry));
  }
  return rules;
}

function hostAllowed(rules: AllowRules, host: string): boolean {
  const h = normHost(host);
  return rules.hosts.has(h) || rules.suffixes.some((s) => h.endsWith(s));
}

function ipAllowed(rules: AllowRules, ip: string): boolean {
  const addr = parseIp(ip);
  if (!addr) return false;
  return rules.ranges.some(([range, bits]) => {
    if (range.kind() !== addr.kind()) {
      // An IPv4 range written in mapped form (or the reverse) still matches.
      if (range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress()) {
        return addr.kind() === 'ipv4' && addr.match((range as ipaddr.IPv6).toIPv4Address(), Math.max(bits - 96, 0));
      }
      return false;
    }
    return addr.match(range, bits);
  });
}

function checkAddress(rules: AllowRules, host: string, ip: string): void {
  if (isBlockedAddress(ip) && !hostAllowed(rules, host) && !ipAllowed(rules, ip)) {
    // The address itself is never named: errors reach the caller, who must not learn the service's network.
    const what = parseIp(host) ? 'the host' : `${host} resolves to an address that`;
    throw new FetchError('blocked_address', `${what} is not a public address`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function guardedLookup(rules: AllowRules, resolve: Resolver) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(new FetchError('dns_error', `${hostname} has no addresses`) as never, '');
        try {
          // Every answer is checked: one public record must not smuggle in a private one.
          for (const a of addresses) checkAddress(rules, hostname, a.address);
        } catch (err) {
          return callback(err as never, '');
        }
        // Pinned: the socket connects to this checked address and nothing else.
        const pinned = addresses[0];
        if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
        else callback(null, pinned.address, pinned.family);
      },
      (err: NodeJS.ErrnoException) => callback(new FetchError('dns_error', `cannot resolve ${hostname}: ${err.code ?? err.message}`) as never, ''),
    );
  };
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function checkUrl(rules: AllowRules, raw: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new FetchError('bad_url', `not a valid URL: ${String(raw).slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError('bad_scheme', `only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new FetchError('bad_url', 'URLs with credentials are not fetched');
  const literal = parseIp(url.hostname);
  // No DNS lookup happens for an IP literal, so the hook never sees it: check it here.
  if (literal) checkAddress(rules, url.hostname, literal.toString());
  url.hash = '';
  return url;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      throw new FetchError('http_error', `unsupported content encoding ${encoding}`);
  }
}

async function readCapped(body: Readable, encoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const decoder = decoderFor(encoding);
  // Compressed bodies are counted after inflation: the limit is on what we keep.
  const source: Readable = decoder ? pipeline(body, decoder, () => undefined) : body;
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw new FetchError('too_large', `response body exceeds ${maxBytes} bytes`);
      chunks.push(chunk);
    }
  } finally {
    // Stops the transfer when we leave early; a no-op after a complete read.
    discard(source);
    discard(body);
  }
  return Buffer.concat(chunks, total);
}

/** Drops a response body; undici reports the abort as an error event, which is expected here. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function mapError(err: unknown, timedOut: boolean): FetchError {
  if (timedOut) return new FetchError('timeout', 'fetch took too long');
  if (err instanceof FetchError) return err;
  const e = err as { name?: string; code?: string; message?: string; cause?: unknown };
  if (e?.cause instanceof FetchError) return e.cause;
  if (e?.name === 'AbortError' || /Timeout/i.test(e?.name ?? '') || /TIMEOUT/.test(e?.code ?? '')) return new FetchError('timeout', 'fetch took too long');
  // Socket errors name the resolved address and port: only their code is passed on.
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') return new FetchError('dns_error', `cannot resolve the host (${e.code})`);
  return new FetchError('network_error', `cannot reach the host${e?.code && /^[A-Z_]+$/.test(e.code) ? ` (${e.code})` : ''}`);
}

/**
 * GETs a URL under the SSRF guard. Follows up to `maxRedirects` (default 5) redirects, each
 * re-checked; enforces `maxBytes` while streaming and `timeoutMs` over the whole exchange.
 * Statuses ≥ 400 throw `http_error`.
 */
export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  const rules = compileAllowList(opts.allowList);
  const maxRedirects = opts.maxRedirects ?? 5;
  let current = checkUrl(rules, url);

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs);
  const agent = new Agent({
    connect: { lookup: guardedLookup(rules, opts.resolve ?? systemResolver) as never, timeout: opts.timeoutMs },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    keepAliveTimeout: 1000,
  });

  try {
    for (let hop = 0; ; hop++) {
      const res = await request(current, {
        method: 'GET',
        dispatcher: agent,
        signal: controller.signal,
        headers: {
          'user-agent': opts.userAgent ?? 'loci-ingest/1.0',
          accept: 'text/html,application/xhtml+xml,text/plain,text/markdown,application/pdf,*/*;q=0.5',
          // Compressed bodies would let a small response inflate past the limit before we count it.
          'accept-encoding': 'identity',
        },
      });
      const status = res.statusCode;
      const location = header(res.headers, 'location');
      if (REDIRECTS.has(status) && location) {
        discard(res.body);
        if (hop >= maxRedirects) throw new FetchError('too_many_redirects', `more than ${maxRedirects} redirects`);
        current = checkUrl(rules, location, current);
        continue;
      }
      if (status >= 400 || (status >= 300 && status < 400)) {
        discard(res.body);
        throw new FetchError('http_error', `${current.href} answered ${status}`, status);
      }
      const declared = Number(header(res.headers, 'content-length'));
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        discard(res.body);
        throw new FetchError('too_large', `response body is ${declared} bytes (limit ${opts.maxBytes})`);
      }
      const body = await readCapped(res.body, header(res.headers, 'content-encoding'), opts.maxBytes);
      return { url: current.href, status, contentType: header(res.headers, 'content-type') ?? '', body };
    }
  } catch (err) {
    throw mapError(err, timedOut);
  } finally {
    clearTimeout(timer);
    agent.destroy().catch(() => undefined);
  }
}
