/**
 * Heap retained by each contender after many requests: a child process per contender (see
 * heap-child.ts) against the shared mock server.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ContenderName } from './contenders.js';

/** What a heap child reports, in bytes, measured after full collections. */
export interface HeapResult {
  /** `heapUsed` before the counted requests (after the warm-up). */
  before: number;
  /** `heapUsed` after them. */
  after: number;
  /** How much of `after - before` is compiled code and bytecode rather than objects. */
  codeGrowth: number;
}

/** Runs `requests` calls of `contender` (after `warmup` uncounted ones) in a fresh process. */
export async function measureRetainedHeap(
  contender: ContenderName,
  target: { baseUrl: string; apiKey: string; projectId: string },
  { requests, warmup }: { requests: number; warmup: number },
): Promise<HeapResult> {
  const child = fork(
    fileURLToPath(new URL('./heap-child.ts', import.meta.url)),
    [contender, target.baseUrl, target.apiKey, target.projectId, String(requests), String(warmup)],
    {
      // --no-flush-bytecode: V8 otherwise discards the bytecode of functions not run lately at
      // some collection or other, which moved `heapUsed` by up to 800 KiB either way between two
      // runs of the same client and hid what the client itself keeps.
      execArgv: ['--expose-gc', '--no-flush-bytecode', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let result: HeapResult | undefined;
  child.on('message', (message: HeapResult) => {
    result = message;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0 || !result) throw new Error(`heap child for ${contender} exited with ${code}`);
  return result;
}
