// The inside of a sandboxed server's network: a small Node program that runs first in the
// sandbox, listens on loopback (the proxy port and each granted local port) and carries every
// connection to Carte's allowlist proxy through the bound unix socket, then runs the server.
// It is passed to `node -e`, so nothing is written to disk and any Node can run it.
// The proxy variables are set here, for the server only: NODE_USE_ENV_PROXY=1 costs a Node about
// 35 ms of CPU at start (it loads the proxy agent), which the forwarder itself need not pay.

/** The proxy port inside the sandbox (HTTP_PROXY points here). */
export const INSIDE_PROXY_PORT = 3128;

/** `node -e` source. argv: [socket, proxyPort, portsJson, command, ...args]. */
export const FORWARDER_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [sock, proxyPort, portsJson, command, ...args] = process.argv.slice(1);
const listen = (port, onConn) => new Promise((ok, fail) => net.createServer(onConn).listen(Number(port), '127.0.0.1', ok).on('error', fail));
const pipeRaw = (c) => { const u = net.connect(sock); u.on('error', () => c.destroy()); c.on('error', () => u.destroy()); c.pipe(u).pipe(c); };
const tunnel = (port) => (c) => {
  const u = net.connect(sock, () => u.write('CONNECT 127.0.0.1:' + port + ' HTTP/1.1\\r\\nHost: 127.0.0.1:' + port + '\\r\\n\\r\\n'));
  let buf = '';
  const onData = (d) => {
    buf += d.toString('latin1');
    const end = buf.indexOf('\\r\\n\\r\\n');
    if (end < 0) return;
    u.off('data', onData);
    if (!/^HTTP\\/1\\.[01] 200/.test(buf)) return void (c.destroy(), u.destroy());
    const rest = Buffer.from(buf.slice(end + 4), 'latin1');
    if (rest.length) c.write(rest);
    c.pipe(u).pipe(c);
  };
  u.on('data', onData); u.on('error', () => c.destroy()); c.on('error', () => u.destroy());
};
Promise.all([listen(proxyPort, pipeRaw), ...JSON.parse(portsJson).map((p) => listen(p, tunnel(p)))]).then(() => {
  const url = 'http://127.0.0.1:' + proxyPort;
  const env = { ...process.env, HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NODE_USE_ENV_PROXY: '1' };
  const child = spawn(command, args, { stdio: 'inherit', env });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (require('node:os').constants.signals[signal] ?? 9)));
  child.on('error', (e) => { process.stderr.write('carte sandbox: cannot start ' + command + ': ' + e.message + '\\n'); process.exit(127); });
}, (e) => { process.stderr.write('carte sandbox: cannot listen: ' + e.message + '\\n'); process.exit(1); });
`;
