// Writes schema/carte.schema.json from the built config module (run after `tsc`), so editors can
// complete config files. A snapshot test in src/config pins the committed file to the schema.
// Usage: node scripts/gen-schema.mjs [module]   (module defaults to ../dist/config/index.js;
// `npx tsx scripts/gen-schema.mjs ../src/config/index.ts` works without a build)
import { writeFileSync } from 'node:fs';

const modulePath = process.argv[2] ?? '../dist/config/index.js';
const { configJsonSchema } = await import(new URL(modulePath, import.meta.url).href);
const target = new URL('../schema/carte.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
process.stderr.write(`wrote ${target.pathname}\n`);
