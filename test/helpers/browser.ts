// The system's Chromium for browser tests (playwright-core drives it; no browser is downloaded).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Path of a Chromium to drive: LOCI_CHROMIUM, else the Debian package's. Null when there is none. */
export function findChromium(): string | null {
  const fromEnv = process.env.LOCI_CHROMIUM;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** Where screenshots go (git-ignored). */
export function artifactsDir(): string {
  const dir = join(process.cwd(), 'test-artifacts', 'dashboard');
  mkdirSync(dir, { recursive: true });
  return dir;
}
