/**
 * Client CPU per call with the network taken out: the global `fetch` is a stub that answers a
 * canned response at once (see stub-fetch.ts), so what is timed is the client's own work
 * (building the request, validating, reading and parsing the body, its promises and objects) and
 * nothing of the server, the socket or the HTTP stack; the stub's `Response` and whatever
 * `Request` a client builds remain, as they would with a real `fetch`. It is read on the
 * process's CPU clock, which other processes competing for the cores barely move, so it is the
 * steadiest figure on a busy machine and the one to watch when changing the SDK's request path.
 */
import {
  CONTENDER_NAMES,
  type Contender,
  type ContenderName,
  createContender,
} from './contenders.js';
import { measureSequential } from './latency.js';
import { OPERATIONS, type Operation } from './operations.js';
import type { Summary } from './stats.js';
import { installStubFetch, STUB_PROJECT_ID } from './stub-fetch.js';

/** Per contender and operation: time per call in microseconds, over batches of `batch` calls. */
export type Overheads = Map<Operation, Map<ContenderName, Summary>>;

/**
 * Times batches of `batch` sequential calls, `samples` batches per contender and operation,
 * interleaved round-robin after `warmup` uncounted rounds.
 */
export async function measureOverhead({
  warmup,
  samples,
  batch,
}: {
  warmup: number;
  samples: number;
  batch: number;
}): Promise<Overheads> {
  const restoreFetch = installStubFetch();
  try {
    const contenders: Contender[] = CONTENDER_NAMES.map((name) =>
      createContender(name, { baseUrl: 'http://stub.test/api', apiKey: 'sk-stub' }),
    );
    const results: Overheads = new Map();
    for (const operation of OPERATIONS) {
      results.set(
        operation,
        await measureSequential(contenders, operation, STUB_PROJECT_ID, {
          warmup,
          samples,
          batch,
          clock: 'cpu',
        }),
      );
    }
    return results;
  } finally {
    restoreFetch();
  }
}
