// PGlite has no autovacuum: keep statistics and visibility maps fresh on a timer so
// plans stay index-friendly as tables grow. A Postgres server does this itself.
import type { Db } from './db.js';
import type { PgliteDb } from './pglite.js';
import { inBackground } from '../infra/priority.js';

export function scheduleMaintenance(db: Db, everyMs = 10 * 60_000, onError: (err: unknown) => void = () => {}): () => void {
  if (db.kind !== 'pglite') return () => {};
  const timer = setInterval(() => {
    inBackground(() => (db as PgliteDb).maintenance('VACUUM (ANALYZE)')).catch(onError);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
