import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Two cores: more than two files at once only adds contention (PGlite and the model are CPU bound).
    maxWorkers: 2,
    // Files share their worker's module graph instead of importing the app afresh each (≈1.6 s of CPU
    // per file). Every file builds its own app, database and services; module state holds only
    // constants and loaded engines (NLP models, schema compilers).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results.json' }]] : ['default'],
  },
});
