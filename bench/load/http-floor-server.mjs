// The least a Node HTTP face can do per call (bench/load/http-floor.ts): a bare node:http server
// that reads each POST, parses its JSON-RPC body and answers it. `bare` answers itself with an echo
// result; `proxy` sends the request on to an MCP server over stdio (after one initialize), matches
// the answer by id and returns it: an HTTP-to-stdio proxy with no SDK, no checks, no audit.
// Run: node http-floor-server.mjs bare|proxy [upstream.js]; prints "listening <port>" on stdout.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

const [mode, upstreamEntry] = process.argv.slice(2);
if (mode !== 'bare' && mode !== 'proxy') throw new Error(`mode must be bare or proxy, not "${mode}"`);

/** The stdio leg of `proxy`: one child, requests matched to answers by a number id of ours. */
function stdioLeg(entry) {
  const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let next = 0;
  let held = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    held += text;
    for (let nl = held.indexOf('\n'); nl >= 0; nl = held.indexOf('\n')) {
      const message = JSON.parse(held.slice(0, nl));
      held = held.slice(nl + 1);
      const answer = waiting.get(message.id);
      if (answer) {
        waiting.delete(message.id);
        answer(message);
      }
    }
  });
  const send = (method, params) =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  return { child, send };
}

const leg = mode === 'proxy' ? stdioLeg(upstreamEntry) : undefined;
if (leg) {
  await leg.send('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'floor', version: '0' },
  });
  leg.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
}

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const reply = (result) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
    };
    if (!leg) return reply({ content: [{ type: 'text', text: `Echo: ${body.params?.arguments?.message}` }] });
    void leg.send(body.method, body.params).then((answer) => reply(answer.result));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => {
  leg?.child.kill();
  process.exit(0);
});
