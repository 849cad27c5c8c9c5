// The dashboard: static files of web/ and the browser builds of its libraries, read from
// node_modules at start and served from memory (nothing fetched at run time, no build step),
// plus the loopback sign-in of standalone mode.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { LOCAL_OPERATOR, TRUST } from '../core/caller.js';
import { forbidden } from '../core/errors.js';

const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));
const require = createRequire(import.meta.url);

/** Root folder of an installed package (from its entry point up to its package.json; `exports` may hide that file). */
function pkgDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`package ${name} not found`);
    dir = up;
  }
  return dir;
}

/** URL under /vendor/ → file of an installed package. Only these are served. */
const VENDOR: [string, string, string][] = [
  ['preact.mjs', 'preact', 'dist/preact.mjs'],
  ['preact-hooks.mjs', 'preact', 'hooks/dist/hooks.mjs'],
  ['htm.mjs', 'htm', 'dist/htm.mjs'],
  ['graphology.umd.min.js', 'graphology', 'dist/graphology.umd.min.js'],
  ['graphology-library.min.js', 'graphology-library', 'dist/graphology-library.min.js'],
  ['sigma.min.js', 'sigma', 'dist/sigma.min.js'],
  ['uPlot.iife.min.js', 'uplot', 'dist/uPlot.iife.min.js'],
  ['uPlot.min.css', 'uplot', 'dist/uPlot.min.css'],
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.json': 'application/json',
};

interface Asset { body: Buffer; type: string; etag: string }

function asset(file: string): Asset {
  const body = readFileSync(file);
  const ext = file.slice(file.lastIndexOf('.'));
  return { body, type: TYPES[ext] ?? 'application/octet-stream', etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const f = join(dir, n);
    return statSync(f).isDirectory() ? walk(f) : [f];
  });
}

/** Loads web/ and the vendor files once: URL path → asset. */
export function loadAssets(): Map<string, Asset> {
  const out = new Map<string, Asset>();
  for (const f of walk(WEB_DIR)) out.set('/ui/' + relative(WEB_DIR, f).split(sep).join('/'), asset(f));
  for (const [name, pkg, file] of VENDOR) out.set(`/vendor/${name}`, asset(join(pkgDir(pkg), file)));
  return out;
}

/** The page's Content-Security-Policy: scripts from this origin plus the inline import map, by hash. */
export function contentSecurityPolicy(indexHtml: string): string {
  const maps = [...indexHtml.matchAll(/<script type="importmap">([\s\S]*?)<\/script>/g)]
    .map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
  return [
    "default-src 'self'", `script-src 'self' ${maps.join(' ')}`, "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
    "connect-src 'self'", "worker-src 'self' blob:", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'",
  ].join('; ');
}

const isLoopback = (addr: string | undefined) => {
  if (!addr) return false;
  try {
    const a = ipaddr.process(addr);
    return a.range() === 'loopback';
  } catch {
    return addr === 'localhost';
  }
};

/** Host header names a loopback host (a rebound DNS name does not). */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/**
 * Whether this request may open the dashboard without a key: standalone mode, the server bound to a
 * loopback address, the connection from loopback, a loopback Host (no DNS rebinding) and no proxy
 * in between.
 */
export function loopbackStandalone(s: Services, req: FastifyRequest): boolean {
  const h = req.headers;
  return s.config.mode === 'standalone' && isLoopback(s.config.host) && isLoopback(req.socket.remoteAddress)
    && LOOPBACK_HOST.test(String(h.host ?? '')) && h['x-forwarded-for'] === undefined && h.forwarded === undefined;
}

const SESSION_KEY_NAME = 'dashboard-loopback';

export const dashboardRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  const assets = loadAssets();
  const index = assets.get('/ui/index.html')!;
  const csp = contentSecurityPolicy(index.body.toString('utf8'));
  const hide = { hide: true };
  const open = { auth: 'open' as const };

  const send = (req: FastifyRequest, reply: import('fastify').FastifyReply, a: Asset) => {
    reply.header('content-type', a.type).header('etag', a.etag).header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff');
    if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
    return reply.send(a.body);
  };

  app.get('/', { config: open, schema: hide }, async (req, reply) => {
    reply.header('content-security-policy', csp).header('referrer-policy', 'no-referrer').header('x-frame-options', 'DENY');
    return send(req, reply, index);
  });
  for (const prefix of ['/ui/*', '/vendor/*']) {
    app.get(prefix, { config: open, schema: hide }, async (req, reply) => {
      const path = req.url.split('?')[0];
      const a = assets.get(path);
      if (!a) return reply.code(404).type('application/problem+json').send({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'No such file' });
      return send(req, reply, a);
    });
  }

  // The key a loopback standalone browser signs in with: one trust-1 key of the standalone tenant per
  // process (never admin), minted on first use; earlier processes' keys of this name are revoked.
  let session: Promise<string> | null = null;
  const mintSession = async () => {
    const tenant = s.config.standaloneTenant;
    for (const k of await s.keys.list(LOCAL_OPERATOR, tenant)) {
      if (k.name === SESSION_KEY_NAME && !k.revoked_at) await s.keys.revoke(LOCAL_OPERATOR, k.id);
    }
    return (await s.keys.create(LOCAL_OPERATOR, { tenant_id: tenant, trust_level: TRUST.standard, name: SESSION_KEY_NAME })).key;
  };

  app.post('/dashboard/session', {
    config: open,
    schema: hide,
  }, async (req) => {
    // The custom header forces a CORS preflight, which this server never grants: only its own pages get here.
    if (req.headers['x-loci-dashboard'] !== '1' || !loopbackStandalone(s, req)) {
      throw forbidden('Sign in with an API key: keyless access is only for standalone mode on a loopback address');
    }
    session ??= mintSession().catch((err) => {
      session = null;
      throw err;
    });
    return { key: await session, tenant_id: s.config.standaloneTenant, trust_level: TRUST.standard };
  });
};
