/**
 * Preloaded (`--expose-gc --import=<this file>`) into the Node.js contenders the benchmark starts
 * itself: SIGUSR2 runs a full garbage collection. Heap used without one includes whatever garbage V8
 * has not collected yet (an idle process does not collect at all), so "heap per 1,000 cached pods"
 * is read right after this. Never part of a deployed controller.
 */
const gc = (globalThis as { gc?: () => void }).gc;
if (gc !== undefined) {
  process.on('SIGUSR2', () => {
    gc();
  });
}
