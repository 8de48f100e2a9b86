/**
 * Child-process entry for the retained-heap measurement of one contender, run with --expose-gc:
 * warm up, collect, note the heap, make the requests, collect, note it again, report to the
 * parent. One process per contender, so no contender's caches or garbage count against another.
 *
 * Arguments: <contender> <baseUrl> <apiKey> <projectId> <requests> <warmup>
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { CONTENDER_NAMES, type ContenderName, createContender } from './contenders.js';
import type { HeapResult } from './heap.js';
import { callOf, OPERATIONS } from './operations.js';

const [name, baseUrl, apiKey, projectId, requestsArg, warmupArg] = process.argv.slice(2);
if (!CONTENDER_NAMES.includes(name as ContenderName) || !baseUrl || !apiKey || !projectId) {
  throw new Error(`usage: heap-child.ts <contender> <baseUrl> <apiKey> <projectId> <n> <warmup>`);
}
const collect = globalThis.gc;
if (!collect) throw new Error('heap-child.ts needs node --expose-gc');

const contender = createContender(name as ContenderName, { baseUrl, apiKey });
// The three operations in turn, so every code path of the client is exercised.
const calls = OPERATIONS.map((operation) => callOf(contender, operation, projectId));

async function run(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await (calls[i % calls.length] as () => Promise<unknown>)();
}

/**
 * The heap after full collections, with turns of the event loop between so that finalizers and
 * what they free settle. `code` is the part V8 holds compiled code and bytecode in (its code and
 * trusted spaces): it grows while functions get optimised, not because a client keeps objects.
 */
async function settledHeap(): Promise<{ used: number; code: number }> {
  for (let i = 0; i < 4; i++) {
    collect?.();
    await nextTurn();
  }
  const code = getHeapSpaceStatistics()
    .filter(({ space_name }) => /code|trusted/.test(space_name))
    .reduce((sum, space) => sum + space.space_used_size, 0);
  return { used: process.memoryUsage().heapUsed, code };
}

// The warm-up fills what is meant to be filled once (compiled code, the connection pool).
await run(Number(warmupArg));
const before = await settledHeap();
await run(Number(requestsArg));
const after = await settledHeap();

process.send?.({
  before: before.used,
  after: after.used,
  codeGrowth: after.code - before.code,
} satisfies HeapResult);
process.disconnect?.();
