/**
 * Property: under any sequence of faults and any retry, timeout and abort settings, a call makes
 * exactly the attempts the retry policy allows (and the 401 replay a token function earns), ends with the error the last fault calls for,
 * keeps one Idempotency-Key per POST, never creates twice, never starts an attempt after an abort
 * and never shows the API key.
 *
 * The service is the mock behind msw; the clock is fake, so backoffs of seconds cost nothing and
 * each run's timing is exact.
 */
import * as fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentChatError, Client, RateLimitError } from '../../src/index.js';
import { createMockService, type Fault, strictListen } from '../../src/testing/index.js';
import {
  leaksOf,
  type Outcome,
  propertyRuns,
  recordingLogger,
  settleWithFakeTimers,
} from '../helpers/reliability.js';

// The project get and chat address, in the store from the start (and again after each reset):
// made through the client, its call would run on the fake clock while the mock answers in real
// time, and a loaded machine could see it time out before any fault is queued.
const SEEDED_PROJECT = { id: 'proj_seeded', name: 'seed', agentId: 'agent_seed' };
const service = createMockService({ projects: [SEEDED_PROJECT] });
const server = setupServer(...service.handlers);

/** One attempt's fate. `lost-response` is played by the client's fetch: served, then dropped. */
type Step =
  | { kind: 'status'; status: number; headers: Record<string, string>; echoKey: boolean }
  | { kind: 'malformed'; status: number; body: string }
  | { kind: 'network-error' }
  | { kind: 'hang' }
  | { kind: 'delay'; share: number }
  | { kind: 'lost-response' };

const retryableStatuses = [408, 409, 429, 500, 502, 503, 504];
const finalStatuses = [400, 401, 403, 404, 422];

/** Waits the server may ask for: some under the 60 s the client is willing to sleep, some over. */
const serverWait = fc.oneof(
  fc.constantFrom(0, 1, 3, 90).map((seconds) => ({ 'retry-after': String(seconds) })),
  fc.constantFrom(0, 250, 2_000, 75_000).map((ms) => ({ 'retry-after-ms': String(ms) })),
  // An HTTP date, `date+<seconds>` from the fake clock's now, written out when the fault is queued.
  fc.constantFrom(2, 5, 120).map((seconds) => ({ 'retry-after': `date+${seconds}` })),
);

const statusStep = fc
  .record({
    status: fc.constantFrom(...retryableStatuses, ...finalStatuses, 200, 204),
    wait: fc.oneof({ arbitrary: fc.constant({}), weight: 3 }, { arbitrary: serverWait, weight: 2 }),
    // Rare, so that most runs exercise the status policy rather than its override.
    shouldRetry: fc.oneof(
      { arbitrary: fc.constant({}), weight: 6 },
      {
        arbitrary: fc.constantFrom('true', 'false').map((v) => ({ 'x-should-retry': v })),
        weight: 1,
      },
    ),
    echoKey: fc.boolean(),
  })
  .map(
    ({ status, wait, shouldRetry, echoKey }): Step => ({
      kind: 'status',
      status,
      headers: { ...wait, ...shouldRetry },
      echoKey,
    }),
  );

/** Bodies that are not JSON, or JSON of the wrong shape. */
const malformedBody = fc.oneof(
  fc.constantFrom('{"id":', 'not json', '<html><body>502</body></html>', '[]', 'null', '""', '{}'),
  fc.constantFrom('{"unexpected":true}', '{"id":42,"name":null}', '{"message":1,"suggestions":{}}'),
  fc.string().filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  }),
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: statusStep, weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant('malformed' as const),
      status: fc.constantFrom(200, 201, 500, 503),
      body: malformedBody,
    }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'network-error' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'hang' as const }), weight: 1 },
  // Shares of the timeout: below 0.5 the attempt beats its timeout, above 1.2 it loses.
  {
    arbitrary: fc.record({
      kind: fc.constant('delay' as const),
      share: fc.oneof(
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 1.2, max: 3, noNaN: true }),
      ),
    }),
    weight: 1,
  },
  { arbitrary: fc.constant({ kind: 'lost-response' as const }), weight: 1 },
);

const scenario = fc.record({
  operation: fc.constantFrom('projects.create', 'projects.get', 'chat.send'),
  steps: fc.array(step, { maxLength: 6 }),
  maxRetries: fc.integer({ min: 0, max: 4 }),
  timeout: fc.integer({ min: 50, max: 5_000 }),
  // Latency stays under a quarter of the timeout, so only delay and hang steps time out.
  latencyShare: fc.double({ min: 0, max: 0.25, noNaN: true }),
  // Where the retry settings are given: on the client, or on the call.
  settingsOnCall: fc.boolean(),
  // The caller's abort: none, before the call, or at some point of its fake timeline.
  abort: fc.oneof(
    { arbitrary: fc.constant({ when: 'never' as const }), weight: 7 },
    { arbitrary: fc.constant({ when: 'before-call' as const }), weight: 1 },
    {
      arbitrary: fc.record({
        when: fc.constant('after' as const),
        ms: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40_000 })),
      }),
      weight: 2,
    },
  ),
  apiKey: fc.stringMatching(/^sk_(live|test)_[A-Za-z0-9]{16,40}$/),
  keyAsFunction: fc.boolean(),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

/**
 * What the contract says a call must end with, before any abort: attempts and error class. A 401
 * to a token from a function that the policy does not retry is replayed once, outside the retries.
 */
function expectedOutcome(
  steps: readonly Step[],
  maxRetries: number,
  keyAsFunction: boolean,
): { attempts: number; error: string | undefined } {
  let retriesLeft = maxRetries;
  let replayed = false;
  for (let attempt = 0; ; attempt++) {
    const current = steps[attempt];
    const verdict = judge(current);
    if (verdict.error === undefined) return { attempts: attempt + 1, error: undefined };
    const retried = verdict.retry && retriesLeft > 0;
    if (!retried && keyAsFunction && !replayed && isReplayable401(current)) {
      replayed = true;
      continue;
    }
    if (!retried) return { attempts: attempt + 1, error: verdict.error };
    retriesLeft--;
  }
}

function isReplayable401(step: Step | undefined): boolean {
  return (
    step?.kind === 'status' && step.status === 401 && step.headers['x-should-retry'] !== 'false'
  );
}

/** The error one attempt ends with (none for a success) and whether the policy retries it. */
function judge(current: Step | undefined): { error: string | undefined; retry: boolean } {
  if (current === undefined) return { error: undefined, retry: false };
  switch (current.kind) {
    case 'network-error':
    case 'lost-response':
      return { error: 'APIConnectionError', retry: true };
    case 'hang':
      return { error: 'APITimeoutError', retry: true };
    case 'delay':
      return current.share < 1
        ? { error: undefined, retry: false }
        : { error: 'APITimeoutError', retry: true };
    case 'malformed':
      return current.status < 300
        ? { error: 'ResponseValidationError', retry: false }
        : { error: 'InternalServerError', retry: true };
    case 'status': {
      if (current.status < 300) return { error: 'ResponseValidationError', retry: false };
      const shouldRetry = current.headers['x-should-retry'];
      const retryable =
        shouldRetry === undefined
          ? retryableStatuses.includes(current.status)
          : shouldRetry === 'true';
      return { error: errorNameFor(current.status), retry: retryable && !asksTooLong(current) };
    }
  }
}

function errorNameFor(status: number): string {
  const names: Record<number, string> = {
    400: 'BadRequestError',
    401: 'AuthenticationError',
    403: 'PermissionDeniedError',
    404: 'NotFoundError',
    409: 'ConflictError',
    422: 'UnprocessableEntityError',
    429: 'RateLimitError',
  };
  return names[status] ?? (status >= 500 ? 'InternalServerError' : 'APIError');
}

/** True when the step asks for a wait above the 60 s the client is willing to sleep. */
function asksTooLong(current: Extract<Step, { kind: 'status' }>): boolean {
  const ms = current.headers['retry-after-ms'];
  if (ms !== undefined) return Number(ms) > 60_000;
  const header = current.headers['retry-after'];
  if (header === undefined) return false;
  const seconds = header.startsWith('date+') ? Number(header.slice(5)) : Number(header);
  return seconds > 60;
}

/** The mock's fault for a step; a step the client plays (`lost-response`) passes through. */
function faultFor(current: Step, timeout: number, latencyMs: number, apiKey: string): Fault {
  switch (current.kind) {
    case 'status': {
      const headers = Object.fromEntries(
        Object.entries(current.headers).map(([name, value]) => [
          name,
          value.startsWith('date+')
            ? new Date(Date.now() + Number(value.slice(5)) * 1000).toUTCString()
            : value,
        ]),
      );
      if (!current.echoKey) return { kind: 'status', status: current.status, headers };
      // A hostile or careless server that repeats the key back, in a header and in the body.
      return {
        kind: 'status',
        status: current.status,
        headers: { ...headers, 'x-echo-authorization': `Bearer ${apiKey}` },
        body: { error: { type: 'echo', message: `key ${apiKey} refused`, key: apiKey } },
      };
    }
    case 'malformed':
      return { kind: 'malformed', status: current.status, body: current.body };
    case 'delay':
      // The mock adds its latency on top; the share is of the whole time the attempt waits.
      return { kind: 'delay', ms: Math.max(0, current.share * timeout - latencyMs) };
    case 'lost-response':
      return { kind: 'delay', ms: 0 };
    default:
      return current;
  }
}

/** Runs one scenario and checks every invariant; returns nothing, throws on a violation. */
async function check(run: Scenario): Promise<void> {
  service.reset();
  const logger = recordingLogger();
  const latencyMs = Math.round(run.latencyShare * run.timeout);
  const settings = { maxRetries: run.maxRetries, timeout: run.timeout };

  // Attempts are counted where they arrive. `aborted` is set the moment the caller aborts, so an
  // attempt arriving after it is caught however quickly it follows.
  let aborted = false;
  const arrivedAfterAbort: string[] = [];
  const onRequest = ({ request }: { request: Request }) => {
    if (aborted) arrivedAfterAbort.push(`${request.method} ${request.url}`);
  };

  // The fetch plays `lost-response` steps: the service handles the request, the answer is lost.
  let fetchCalls = 0;
  let playing = false;
  const losingFetch: typeof fetch = async (input, init) => {
    const planned = playing ? run.steps[fetchCalls++] : undefined;
    const response = await globalThis.fetch(input, init);
    if (planned?.kind !== 'lost-response') return response;
    await response.arrayBuffer();
    throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
  };

  const client = new Client({
    apiKey: run.keyAsFunction ? async () => run.apiKey : run.apiKey,
    baseUrl: service.baseUrl,
    fetch: losingFetch,
    logger,
    logLevel: 'debug',
    ...(run.settingsOnCall ? {} : settings),
  });

  const projectId = SEEDED_PROJECT.id;
  playing = true;
  service.setLatency(latencyMs);
  service.enqueue(...run.steps.map((s) => faultFor(s, run.timeout, latencyMs, run.apiKey)));

  const controller = new AbortController();
  const abortReason = new Error('caller gave up');
  // Judged at the moment of the abort: a call still pending then must end as aborted.
  let callSettled = false;
  let abortedWhilePending = false;
  let abortedAt: number | undefined;
  let settledAt: number | undefined;
  const abort = () => {
    aborted = true;
    abortedAt = Date.now();
    abortedWhilePending = !callSettled;
    controller.abort(abortReason);
  };
  if (run.abort.when === 'before-call') abort();
  else if (run.abort.when === 'after') setTimeout(abort, run.abort.ms);

  const name = 'Project under faults';
  const options = { signal: controller.signal, ...(run.settingsOnCall ? settings : {}) };
  server.events.on('request:start', onRequest);
  let outcome: Outcome<unknown>;
  try {
    const call: Promise<unknown> =
      run.operation === 'projects.create'
        ? client.projects.create({ name, agentId: 'agent_1' }, options)
        : run.operation === 'projects.get'
          ? client.projects.get(projectId, options)
          : client.chat.send({ projectId, message: 'Hello' }, options);
    const markSettled = () => {
      callSettled = true;
      settledAt = Date.now();
    };
    call.then(markSettled, markSettled);
    outcome = await settleWithFakeTimers(call);
  } finally {
    server.events.removeListener('request:start', onRequest);
  }
  const requests = service.requestLog();
  const logLines = logger.lines;
  const expected = expectedOutcome(run.steps, run.maxRetries, run.keyAsFunction);

  // Attempts: never more than maxRetries + 1 (and the one replay after a 401 for a function key);
  // exactly what the policy allows unless aborted.
  expect(requests.length).toBeLessThanOrEqual(run.maxRetries + (run.keyAsFunction ? 2 : 1));
  expect(arrivedAfterAbort).toEqual([]);
  if (!abortedWhilePending) {
    expect(requests.length).toBe(expected.attempts);
    if (expected.error === undefined) {
      expect(outcome.ok, String(!outcome.ok && outcome.error)).toBe(true);
    } else {
      expect(outcome.ok).toBe(false);
      const error = (outcome as { error: unknown }).error;
      expect(error).toBeInstanceOf(AgentChatError);
      expect((error as Error).name).toBe(expected.error);
      if (error instanceof RateLimitError) {
        const last = run.steps[requests.length - 1] as Extract<Step, { kind: 'status' }>;
        const askedToWait = 'retry-after' in last.headers || 'retry-after-ms' in last.headers;
        expect(error.retryAfter !== undefined).toBe(askedToWait);
      }
    }
  } else {
    expect(requests.length).toBeLessThanOrEqual(expected.attempts);
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: unknown }).error;
    expect((error as Error).name).toBe('APIUserAbortError');
    expect((error as Error).cause).toBe(abortReason);
    // At once: on the fake clock, not a millisecond of backoff or timeout passes after the abort.
    expect(settledAt).toBe(abortedAt);
    if (run.abort.when === 'before-call') expect(requests).toEqual([]);
  }

  // Idempotency: one key for every attempt of a POST, none on a GET; never a second project.
  const keys = new Set(requests.map((request) => request.headers['idempotency-key']));
  if (run.operation === 'projects.get')
    expect([...keys]).toEqual(requests.length ? [undefined] : []);
  else {
    expect(keys.size).toBeLessThanOrEqual(1);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f-]{36}$/);
  }
  const created = service.projects().filter((project) => project.name === name);
  expect(created.length).toBeLessThanOrEqual(1);
  if (run.operation === 'projects.create' && outcome.ok) {
    expect(created.map((project) => project.id)).toEqual([(outcome.value as { id: string }).id]);
  }

  // Logging: a line per attempt, numbered, in order (an attempt cut short by an abort has none).
  if (abortedWhilePending) expect(logLines.length).toBeLessThanOrEqual(requests.length);
  else expect(logLines.length).toBe(requests.length);
  logLines.forEach((line, index) => {
    expect(line.text).toContain(`attempt ${index + 1}/${run.maxRetries + 1}`);
  });

  // The key: in no error, no log line, not in the client itself.
  if (!outcome.ok) expect(leaksOf(outcome.error, run.apiKey)).toEqual([]);
  expect(logger.lines.filter((line) => line.text.includes(run.apiKey))).toEqual([]);
  expect(leaksOf(client, run.apiKey)).toEqual([]);
}

describe('any sequence of faults', () => {
  beforeAll(() => strictListen(server));
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(() => server.close());

  it('makes the allowed attempts, ends with the right error, keeps one Idempotency-Key, stops at an abort and hides the key', async () => {
    vi.useFakeTimers();
    await fc.assert(fc.asyncProperty(scenario, check), { numRuns: propertyRuns(200) });
  }, 120_000);
});
