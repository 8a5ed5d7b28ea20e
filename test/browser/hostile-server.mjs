// Fixture for the web menu's test: a stdio server whose tool names the page must show as text.
// Its description and schema carry markup that would run script if the page used innerHTML:
// the test checks the text shows literally and `window.__pwned` stays unset. Its second tool,
// `erase`, is destructive (no annotations) and takes an object, for the call form's JSON box.
// Run: node test/browser/hostile-server.mjs
import { callFrom, listAll, serveToolsOverStdio, textResult } from '../fixtures/lib.mjs';

const PAYLOAD = '<img src=x onerror="window.__pwned=1">';
const tools = [
  {
    name: 'render_markup',
    title: `Markup ${PAYLOAD}`,
    description: `Shows markup. ${PAYLOAD} <script>window.__pwned=2</script>`,
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        html: { type: 'string', description: `Field ${PAYLOAD}` },
        mode: { type: 'string', enum: ['<b>bold</b>', 'plain'] },
      },
      required: ['html'],
    },
    handler: (args) => textResult(`got ${String(args.html)}`),
  },
  {
    name: 'erase',
    description: 'Erases what its filter matches (it only says so).',
    inputSchema: { type: 'object', properties: { filter: { type: 'object' } } },
    handler: (args) => textResult(`would erase ${JSON.stringify(args.filter)}`),
  },
];

serveToolsOverStdio({ name: 'fixture-hostile', listTools: listAll(tools), callTool: callFrom(tools) });
