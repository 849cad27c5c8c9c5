#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so `npx loci …` works from a checkout without a build step.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
// tsx resolved from this checkout, so the command works from any directory.
const tsx = import.meta.resolve('tsx');
const r = spawnSync(process.execPath, ['--import', tsx, main, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
