// Starts the HTTP service: services, first-start admin key, app, graceful shutdown.
import { existsSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { createServices, type Services } from './services.js';
import { buildApp } from './app.js';
import { TRUST } from './core/caller.js';

/**
 * The admin key: LOCI_ADMIN_KEY when set; otherwise created on first start, printed
 * once and kept in <data dir>/admin.key (0600). Returns the key when it was just created.
 */
export async function ensureAdminKey(s: Services): Promise<string | null> {
  const admin = { tenant_id: s.config.standaloneTenant, trust_level: TRUST.admin, name: 'admin' };
  if (s.config.adminKey) {
    await s.keys.ensure(s.config.adminKey, admin);
    return null;
  }
  const file = join(s.config.dataDir, 'admin.key');
  if (existsSync(file)) return null;
  const created = await s.keys.create(admin);
  mkdirSync(s.config.dataDir, { recursive: true });
  writeFileSync(file, created.key + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return created.key;
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
