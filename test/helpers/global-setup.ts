// Creates one migrated PGlite data dir per test run; every test database starts from it
// (initdb costs seconds, loading a dump about one).
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PgliteDb } from '../../src/store/pglite.js';
import { migrate } from '../../src/store/migrate.js';

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'loci-test-'));
  const db = new PgliteDb();
  await migrate(db, { embeddingDim: 512 });
  const file = join(dir, 'template.tar');
  writeFileSync(file, await db.dump());
  await db.close();
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
