// The script's world, set up inside the interpreter before the script runs. The host's bridge
// functions are taken into this closure and deleted from the global object, and JSON's functions
// are captured first, so a script that replaces JSON.parse or Object.prototype changes only its
// own copies: what crosses the bridge is always a string made by the original JSON.stringify.
export const PRELUDE = String.raw`(() => {
  const host = globalThis.__carte_host;
  const log = globalThis.__carte_log;
  const code = globalThis.__carte_code;
  const done = globalThis.__carte_done;
  delete globalThis.__carte_done;
  delete globalThis.__carte_host;
  delete globalThis.__carte_log;
  delete globalThis.__carte_code;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const MakeError = Error;
  const text = (v) => {
    if (typeof v === 'string') return v;
    try {
      const s = stringify(v);
      return s === undefined ? String(v) : s;
    } catch (e) {
      return String(v);
    }
  };
  const ask = async (op, payload) => {
    const reply = parse(await host(op, stringify(payload)));
    if (reply.ok) return reply.value;
    const err = new MakeError(reply.message);
    err.code = reply.code;
    throw err;
  };
  const call = (key, args) => ask('call', { key: String(key), args: args === undefined ? {} : args });
  const search = (query, options) =>
    ask('search', { query, limit: options && options.limit });
  const line = (...values) => log(values.map(text).join(' '));
  const console = Object.freeze({ log: line, info: line, warn: line, error: line, debug: line });
  Object.defineProperty(globalThis, 'call', { value: call });
  Object.defineProperty(globalThis, 'search', { value: search });
  Object.defineProperty(globalThis, 'console', { value: console });
  const then = Promise.prototype.then;
  const AsyncFunction = (async () => undefined).constructor;
  const main = new AsyncFunction(code);
  const answer = (value) => {
    done();
    return value === undefined ? undefined : stringify(value);
  };
  const fail = (err) => {
    done();
    throw err;
  };
  return then.call(main(), answer, fail);
})()`;
