// A logger that drops everything: the benches print their own progress.
import type { Logger } from '../../src/gateway/index.js';

export const QUIET: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
