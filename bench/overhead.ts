/**
 * Client CPU per call with the network taken out: every contender gets a stub `fetch` that answers
 * a canned response at once, so what is timed is the client's own work (building the request,
 * validating, parsing, its promises and objects) and nothing of the server, the socket or undici.
 * Pure CPU in one thread, it is steadier than the end-to-end figures on a busy machine, and it is
 * the figure to watch when changing the SDK's request path.
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

const PROJECT_ID = 'proj_stub';
const PROJECT = {
  id: PROJECT_ID,
  name: 'Bench project',
  agentId: 'agent_bench',
  status: 'active',
  metadata: {},
  createdAt: '2026-11-01T00:00:00.000Z',
};
const CREATED = { id: PROJECT_ID, name: 'Bench', status: 'active', createdAt: PROJECT.createdAt };
const REPLY = { message: 'agent_bench: happy to help.', suggestions: ['Tell me more'] };

/** Answers like the service would, without a server: a fresh Response per call. */
const stubFetch: typeof globalThis.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const [status, body] =
    method === 'GET' ? [200, PROJECT] : url.endsWith('/chat') ? [200, REPLY] : [201, CREATED];
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_stub' },
  });
};

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
  const contenders: Contender[] = CONTENDER_NAMES.map((name) =>
    createContender(name, { baseUrl: 'http://stub.test/api', apiKey: 'sk-stub', fetch: stubFetch }),
  );
  const results: Overheads = new Map();
  for (const operation of OPERATIONS) {
    results.set(
      operation,
      await measureSequential(contenders, operation, PROJECT_ID, { warmup, samples, batch }),
    );
  }
  return results;
}
