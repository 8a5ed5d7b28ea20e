import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The CLIs tests start inherit this: a user config of the machine's (~/.config/carte/carte.yaml)
// must never change what a test sees. Tests that want a user config set their own.
const noUserConfig = join(tmpdir(), 'carte-test-no-user-config');
// The dictionaries' gloss files (docs/search-languages.md): built once per machine for every test, not in ~/.cache.
const cacheDir = join(tmpdir(), 'carte-test-cache');

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/**/*.soak.test.ts', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { XDG_CONFIG_HOME: noUserConfig, CARTE_CACHE_DIR: cacheDir },
    // A database per run for the store's PostgreSQL tests (skipped, loudly, without a server).
    globalSetup: ['src/store/test-pg-setup.ts'],
  },
});
