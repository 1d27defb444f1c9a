/**
 * A forced garbage collection for heap measurements, with or without
 * `node --expose-gc`: the flag can be turned on at run time and the `gc`
 * function fetched from a fresh context.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

export function gcFunction(): () => void {
  if (collect) return collect;
  // Full collections also flush the bytecode of functions not run lately, which shrinks the heap by
  // hundreds of KB at random and drowns a per-session figure; keep bytecode for the whole run.
  setFlagsFromString('--no-flush-bytecode');
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') {
    collect = existing;
  } else {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  return collect;
}

/** Heap used after two full collections. */
export function settledHeap(): number {
  const gc = gcFunction();
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
