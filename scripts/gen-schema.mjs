// Writes the JSON Schemas in schema/ from the built config module (run after `tsc`), so editors can
// complete config files: carte.schema.json for Carte's own format, and what Carte reads from the
// client files it accepts (mcp-servers.schema.json, vscode-mcp.schema.json). A snapshot test in
// src/config pins the committed files to the schemas.
// Usage: node scripts/gen-schema.mjs [module]   (module defaults to ../dist/config/index.js;
// `npx tsx scripts/gen-schema.mjs ../src/config/index.ts` works without a build)
import { writeFileSync } from 'node:fs';

const FILES = {
  carte: 'carte.schema.json',
  claude: 'mcp-servers.schema.json',
  vscode: 'vscode-mcp.schema.json',
};

const modulePath = process.argv[2] ?? '../dist/config/index.js';
const { configJsonSchema } = await import(new URL(modulePath, import.meta.url).href);
for (const [format, name] of Object.entries(FILES)) {
  const target = new URL(`../schema/${name}`, import.meta.url);
  writeFileSync(target, `${JSON.stringify(configJsonSchema(format), null, 2)}\n`);
  process.stderr.write(`wrote ${target.pathname}\n`);
}
