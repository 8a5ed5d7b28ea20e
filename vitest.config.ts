import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/**/*.soak.test.ts', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A database per run for the store's PostgreSQL tests (skipped, loudly, without a server).
    globalSetup: ['src/store/test-pg-setup.ts'],
  },
});
