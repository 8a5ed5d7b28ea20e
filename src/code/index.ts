/** The code module: runs an agent's script in an isolated interpreter (QuickJS in WebAssembly) with limits, and nothing else. */
export {
  loadInterpreter,
  runScript,
  ScriptToolError,
  type ScriptHost,
  type ScriptResult,
} from './quickjs.js';
export { LOG_MAX_CHARS, STACK_BYTES, type ScriptLimits } from './limits.js';
