/**
 * Heap allocated per call, with the global `fetch` stubbed out (see stub-fetch.ts): what each
 * client makes and drops per call, which its garbage collection then pays for. Unlike times, the
 * figure barely moves when other processes compete for the cores, so it shows a change to the
 * request path even on a busy machine.
 *
 * Read from V8's own accounting: over a run of calls, the heap used before each garbage collection
 * minus the heap used after the one before it (a `GCProfiler` reports both), plus the growth after
 * the last. Objects that survive the run count too; for a client that keeps nothing, those are few.
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { CONTENDER_NAMES, type ContenderName, createContender } from './contenders.js';
import { callOf, OPERATIONS, type Operation } from './operations.js';
import { installStubFetch, STUB_PROJECT_ID } from './stub-fetch.js';

/** Bytes allocated per call, by operation and contender. */
export type Allocations = Map<Operation, Map<ContenderName, number>>;

/** Runs `warmup` uncounted calls (until V8 has compiled the path), then `calls` counted ones. */
export async function measureAllocation({
  warmup,
  calls,
}: {
  warmup: number;
  calls: number;
}): Promise<Allocations> {
  const restoreFetch = installStubFetch();
  try {
    const results: Allocations = new Map();
    for (const operation of OPERATIONS) {
      const perContender = new Map<ContenderName, number>();
      for (const name of CONTENDER_NAMES) {
        const contender = createContender(name, {
          baseUrl: 'http://stub.test/api',
          apiKey: 'sk-stub',
        });
        const call = callOf(contender, operation, STUB_PROJECT_ID);
        for (let i = 0; i < warmup; i++) await call();
        perContender.set(name, (await allocatedBy(call, calls)) / calls);
      }
      results.set(operation, perContender);
    }
    return results;
  } finally {
    restoreFetch();
  }
}

/** Bytes allocated while `call` runs `count` times in sequence. */
async function allocatedBy(call: () => Promise<unknown>, count: number): Promise<number> {
  const profiler = new GCProfiler();
  profiler.start();
  const start = getHeapStatistics().used_heap_size;
  for (let i = 0; i < count; i++) await call();
  const end = getHeapStatistics().used_heap_size;
  const collections = profiler.stop()?.statistics ?? [];
  let allocated = 0;
  let afterPrevious = start;
  for (const { beforeGC, afterGC } of collections) {
    allocated += beforeGC.heapStatistics.usedHeapSize - afterPrevious;
    afterPrevious = afterGC.heapStatistics.usedHeapSize;
  }
  return allocated + (end - afterPrevious);
}
