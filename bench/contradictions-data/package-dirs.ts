// The installed npm packages the development sets draw changelog text from.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every package directory under `<root>/node_modules` (scoped ones and two levels of nesting), sorted. */
export function packageDirs(root: string): string[] {
  const dirs: string[] = [];
  const walk = (d: string, depth: number) => {
    for (const n of readdirSync(d)) {
      if (n.startsWith('.')) continue;
      const p = join(d, n);
      if (n.startsWith('@') && depth === 0) walk(p, depth);
      else if (existsSync(join(p, 'package.json'))) {
        dirs.push(p);
        if (existsSync(join(p, 'node_modules')) && depth < 2) walk(join(p, 'node_modules'), depth + 1);
      }
    }
  };
  walk(join(root, 'node_modules'), 0);
  return dirs.sort();
}
