// The YAML library, loaded on first use: most configs are JSON (`mcpServers` files), and loading
// it eagerly cost every CLI start about 60 ms. A synchronous require keeps config loading sync.
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

const require = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;

export function yamlLib(): typeof Yaml {
  return (yaml ??= require('yaml') as typeof Yaml);
}
