import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CarteError } from '../../errors.js';
import { Problems } from '../problems/problems.js';
import type { CarteConfig } from '../schema/schema.js';
import { validateConfig } from '../validate/validate.js';

const require = createRequire(import.meta.url);

/** The reference servers the demo runs; all are dependencies of Carte, so they work offline. */
export const DEMO_PACKAGES = {
  everything: '@modelcontextprotocol/server-everything',
  filesystem: '@modelcontextprotocol/server-filesystem',
  memory: '@modelcontextprotocol/server-memory',
  'sequential-thinking': '@modelcontextprotocol/server-sequential-thinking',
} as const;

/** The entry file of an installed demo package (`<package>/dist/index.js`). */
export function demoPackageEntry(name: string): string {
  let manifest: string;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch (cause) {
    throw new CarteError('internal', `demo server package "${name}" is not installed; reinstall carte`, {
      cause,
    });
  }
  return join(dirname(manifest), 'dist', 'index.js');
}

/**
 * The config used when no file is found: four reference servers run with this Node binary.
 * The caller must create `<dataDir>/sandbox` (the filesystem server's only allowed folder) before
 * starting the servers; memory keeps its graph in `<dataDir>/memory.jsonl`.
 */
export function demoConfig(dataDir: string): CarteConfig {
  const node = process.execPath;
  const servers = {
    everything: {
      command: node,
      args: [demoPackageEntry(DEMO_PACKAGES.everything), 'stdio'],
      description: 'Reference server that exercises every MCP feature (demo).',
    },
    filesystem: {
      command: node,
      args: [demoPackageEntry(DEMO_PACKAGES.filesystem), '${dataDir}/sandbox'],
      description: 'Read and write files under the data dir sandbox (demo).',
    },
    memory: {
      command: node,
      args: [demoPackageEntry(DEMO_PACKAGES.memory)],
      env: { MEMORY_FILE_PATH: '${dataDir}/memory.jsonl' },
      description: 'A knowledge graph kept in the data dir (demo).',
    },
    'sequential-thinking': {
      command: node,
      args: [demoPackageEntry(DEMO_PACKAGES['sequential-thinking'])],
      description: 'Step-by-step thinking tool (demo).',
    },
  };
  const out = new Problems();
  const config = validateConfig({ servers }, { env: {}, dataDir }, out);
  if (config === undefined) {
    const first = out.errors[0];
    throw new CarteError('internal', `the demo config is invalid (a bug): ${first?.path}: ${first?.message}`);
  }
  return config;
}
