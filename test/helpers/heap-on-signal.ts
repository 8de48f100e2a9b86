/**
 * Loaded into a server process under test (`node --expose-gc --import tsx --import <this file>`):
 * on SIGUSR2 it runs a full garbage collection and prints the heap it then holds
 * (`heap-on-signal: <bytes>`), so that a test reads what the process keeps. Resident memory
 * (gc-on-signal.ts) moves by tens of MiB as V8 and the allocator size their spaces; the heap left
 * after a full collection is what a leak grows.
 */
process.on('SIGUSR2', () => {
  const { gc } = globalThis as { gc?: () => void };
  gc?.();
  gc?.();
  process.stderr.write(`heap-on-signal: ${process.memoryUsage().heapUsed}\n`);
});
