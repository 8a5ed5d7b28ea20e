// The script's world, set up inside the interpreter before the script runs. The host's bridge
// functions are taken into this closure and deleted from the global object, and JSON's functions
// are captured first, so a script that replaces JSON.parse or Object.prototype changes only its
// own copies: what crosses the bridge is always a string made by the original JSON.stringify.
export const PRELUDE = String.raw`(() => {
  const host = globalThis.__carte_host;
  const bind = globalThis.__carte_bind;
  const log = globalThis.__carte_log;
  const code = globalThis.__carte_code;
  const done = globalThis.__carte_done;
  delete globalThis.__carte_done;
  delete globalThis.__carte_host;
  delete globalThis.__carte_bind;
  delete globalThis.__carte_log;
  delete globalThis.__carte_code;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const MakeError = Error;
  const MakePromise = Promise;
  const text = (v) => {
    if (typeof v === 'string') return v;
    try {
      const s = stringify(v);
      return s === undefined ? String(v) : s;
    } catch (e) {
      return String(v);
    }
  };
  // Calls waiting for the host, by id: [resolve, reject]. No prototype, so nothing the script
  // puts on Object.prototype is found here.
  const waiting = Object.create(null);
  let next = 0;
  bind((id, reply) => {
    const w = waiting[id];
    if (w === undefined) return;
    delete waiting[id];
    const r = parse(reply);
    if (r.ok) return w[0](r.value);
    const err = new MakeError(r.message);
    err.code = r.code;
    w[1](err);
  });
  const ask = (op, payload) =>
    new MakePromise((resolve, reject) => {
      const id = next++;
      waiting[id] = [resolve, reject];
      host(op, stringify(payload), id);
    });
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
