#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so `npx loci …` works from a checkout without a build step.
// In this process (not a child): a harness that starts `loci mcp` holds its stdio and its pid, and a
// signal it sends reaches Loci itself.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/main.ts', import.meta.url).href);
