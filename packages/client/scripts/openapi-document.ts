// The OpenAPI document of this checkout's server, built in-process on a temporary data dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config.js';
import { createServices } from '../../../src/services.js';
import { buildApp } from '../../../src/app.js';

export async function openapiDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loci-openapi-'));
  const services = await createServices(loadConfig({ LOCI_DATA_DIR: dataDir, LOCI_LOG_LEVEL: 'silent', LOCI_EMBED_WORKERS: '1' }));
  try {
    const app = await buildApp(services);
    await app.ready();
    const doc = app.swagger();
    await app.close();
    return doc;
  } finally {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
