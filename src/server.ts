// Starts the HTTP service: services, first-start admin key, app, graceful shutdown.
import { existsSync, readFileSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { createServices, type Services } from './services.js';
import { buildApp } from './app.js';
import { TRUST } from './core/caller.js';
import { KEY_PREFIX, newRawKey } from './core/keys.js';

/**
 * The admin key: LOCI_ADMIN_KEY when set; otherwise created on first start, printed once and
 * kept in <data dir>/admin.key (0600). Whichever it is, every earlier one is revoked: changing
 * LOCI_ADMIN_KEY retires the old key. Returns the key when it was just created.
 */
export async function ensureAdminKey(s: Services): Promise<string | null> {
  const admin = { tenant_id: s.config.standaloneTenant, trust_level: TRUST.admin, name: 'admin' };
  if (s.config.adminKey) {
    if (!(await s.keys.ensureBootstrap(s.config.adminKey, admin))) {
      throw new Error('LOCI_ADMIN_KEY is a key that was revoked; set a new one');
    }
    return null;
  }
  const file = join(s.config.dataDir, 'admin.key');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    // A key file whose key was revoked (LOCI_ADMIN_KEY replaced it meanwhile) gets a new key.
    if (kept.startsWith(KEY_PREFIX) && (await s.keys.ensureBootstrap(kept, admin))) return null;
  }
  const key = newRawKey();
  await s.keys.ensureBootstrap(key, admin);
  mkdirSync(s.config.dataDir, { recursive: true });
  writeFileSync(file, key + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

export async function serve(config: Config): Promise<void> {
  const services = await createServices(config);
  const newKey = await ensureAdminKey(services);
  const app = await buildApp(services);
  await app.listen({ host: config.host, port: config.port });
  if (newKey) {
    process.stdout.write(
      `\nAdmin API key (shown once, also saved to ${join(config.dataDir, 'admin.key')}):\n  ${newKey}\n\n`,
    );
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.log.info({ signal }, 'shutting down');
    await app.close().catch(() => undefined);
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
