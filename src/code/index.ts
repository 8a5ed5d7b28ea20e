/** The code module: runs an agent's script in an isolated interpreter (QuickJS in WebAssembly) with limits, and nothing else. */
export { loadInterpreter } from './instances.js';
export { runScript } from './quickjs.js';
export {
  failedRunLogs,
  ScriptToolError,
  type FailedRunLogs,
  type ScriptHost,
  type ScriptResult,
} from './host.js';
export { LOG_MAX_CHARS, STACK_BYTES, type ScriptLimits } from './limits.js';
