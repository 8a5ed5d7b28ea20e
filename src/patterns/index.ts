/** Tool-rule patterns (globs, `/regex/flags`, `!negations`) compiled to testers: policy applies them, config checks them. */
export { compilePattern, type CompiledPattern } from './patterns.js';
