// An embedded data directory may be opened by one process only (two PGlite
// instances on one directory corrupt it). A pid file claims it.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export class DataDirInUseError extends Error {
  constructor(message: string, readonly dir: string, readonly pid: number) {
    super(message);
  }
}

/** Claims dir for this process; returns the release function. */
export function claimDataDir(dir: string): () => void {
  const file = join(dir, 'loci.pid');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (pid && pid !== process.pid && alive(pid)) {
      throw new DataDirInUseError(
        `The data directory ${dir} is in use by process ${pid}. Stop it first, or use the HTTP API ` +
          `(for keys: POST /api/v1/admin/keys with the admin key).`,
        dir, pid,
      );
    }
  }
  writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
}
