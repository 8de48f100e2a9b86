/**
 * Loaded into a server process under test (`node --expose-gc --import tsx --import <this file>`):
 * on SIGUSR2 it prints two readings of the heap (`heap-readings: <collected> <settled>`, bytes),
 * for a test to read with {@link heapReadingsOf} (test/helpers/junk-tokens.ts).
 *
 * - collected: after one full collection. What an answered request still holds until undici
 *   finalizes its web `Request` (the listeners on its signal, and whatever they reach) counts
 *   here: on a busy server the collector meets it many thousands of requests later, so this is
 *   what a flood piles up between collections.
 * - settled: once those finalizers have run, and after another full collection: what the process
 *   keeps for good. A leak grows it round after round.
 *
 * The server itself is untouched.
 */
const { gc } = globalThis as { gc?: () => void };

/** Calls back once an object it watches is collected: the finalizers of that collection ran. */
const sentinels = new FinalizationRegistry<() => void>((finalized) => finalized());

/** Watches an object no one holds; a function of its own, so that no frame holds it either. */
function watchGarbage(finalized: () => void): void {
  sentinels.register({}, finalized);
}

/** A full collection, and the finalizers it made due, run. */
async function collectAndFinalize(): Promise<void> {
  await new Promise<void>((finalized) => {
    watchGarbage(finalized);
    gc?.();
  });
  // Each registry's finalizers run in a task of their own: let those queued beside ours run.
  await new Promise((resolve) => setImmediate(resolve));
}

process.on('SIGUSR2', async () => {
  gc?.();
  const collected = process.memoryUsage().heapUsed;
  await collectAndFinalize();
  await collectAndFinalize();
  gc?.();
  process.stderr.write(`heap-readings: ${collected} ${process.memoryUsage().heapUsed}\n`);
});
