// The interpreter's WebAssembly: compiled once from the npm package's own .wasm file (read from
// disk, never fetched), and instantiated into instances that runs take one at a time. A run gets
// an instance no other run is using; when it ends cleanly (no limit hit, its runtime freed without
// complaint) the instance goes back to a small idle pool for a later run, else it is dropped whole.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

// The WebAssembly global, typed here: the project's lib has no DOM types.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<unknown> };

interface Loaded {
  variant: QuickJSSyncVariant;
  instantiate: (variant: QuickJSSyncVariant) => Promise<QuickJSWASMModule>;
}
let loading: Promise<Loaded> | undefined;

/**
 * Instances kept idle. Each holds its linear memory (16 MB reserved, a few MB touched after a
 * small run); two cover sequential runs and a pair at once without holding much.
 */
const IDLE_MAX = 2;

/** An instance whose memory grew past its initial 16 MB is dropped: linear memory never shrinks. */
const REUSE_MAX_BYTES = 16 * 2 ** 20;

const idle: QuickJSWASMModule[] = [];

/** The interpreter's code, compiled on first use (about 20 ms) and kept. */
export function loadInterpreter(): Promise<Loaded> {
  const load = (loading ??= (async () => {
    const [core, base] = await Promise.all([
      import('quickjs-emscripten-core'),
      import('@jitl/quickjs-wasmfile-release-sync'),
    ]);
    const file = fileURLToPath(import.meta.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'));
    const wasmModule = await WebAssembly.compile(await readFile(file));
    const variant: QuickJSSyncVariant = core.newVariant(base.default as unknown as QuickJSSyncVariant, {
      wasmModule: wasmModule as never,
    });
    return { variant, instantiate: core.newQuickJSWASMModuleFromVariant };
  })());
  load.catch(() => (loading = undefined));
  return load;
}

/**
 * An instance for one run: an idle one, else a new one (about 1 ms, plus its 16 MB memory, whose
 * allocation and collection cost more than the rest of a small run's start).
 */
export async function takeInstance(): Promise<QuickJSWASMModule> {
  const reused = idle.pop();
  if (reused) return reused;
  const { variant, instantiate } = await loadInterpreter();
  return instantiate(variant);
}

/**
 * Gives an instance back after its run: kept for another run only when the run ended cleanly and
 * its memory never grew. QuickJS frees all of a runtime's memory when it is disposed and asserts
 * that nothing is left, and what a new runtime shows a script is initialised first (new
 * ArrayBuffers are zeroed): a later run sees nothing of an earlier one.
 */
export function returnInstance(wasm: QuickJSWASMModule, clean: boolean): void {
  if (!clean || idle.length >= IDLE_MAX || heapBytes(wasm) > REUSE_MAX_BYTES) return;
  idle.push(wasm);
}

function heapBytes(wasm: QuickJSWASMModule): number {
  // The Emscripten module behind quickjs-emscripten's wrapper (not in its types).
  const heap = (wasm as unknown as { module?: { HEAPU8?: Uint8Array } }).module?.HEAPU8;
  return heap?.byteLength ?? Number.POSITIVE_INFINITY;
}
