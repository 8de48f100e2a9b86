import { type HttpHandler, http } from 'msw';
import { assertFault, type Fault } from './faults/fault.js';
import { faultResponse } from './faults/fault-response.js';
import { fallback } from './handlers/fallback.js';
import { findEndpoint } from './handlers/routing.js';
import { createBearerCheck } from './http/bearer.js';
import {
  bodyFingerprint,
  classifyBody,
  type RequestBody,
  recordedBody,
} from './http/request-body.js';
import { errorResponse } from './http/service-error.js';
import { assertMilliseconds, untilAborted, wait } from './http/wait.js';
import { createIdempotencyRecords } from './store/idempotency.js';
import { randomId } from './store/ids.js';
import { createProjectStore, type StoredProject } from './store/projects.js';
import type { RecordedRequest } from './store/request-log.js';

/**
 * Options of {@link createMockService}.
 *
 * @example
 * ```ts
 * const mock = createMockService({ baseUrl: 'https://agentchat.test/api', apiKeys: ['sk_test'] });
 * ```
 */
export interface MockServiceOptions {
  /**
   * Service root that precedes `/v1`; a trailing slash is tolerated.
   *
   * @default 'https://agentchat.test/api'
   */
  baseUrl?: string;
  /**
   * API keys the mock accepts in `Authorization: Bearer <key>`. An empty list accepts none.
   *
   * @default any non-empty key
   */
  apiKeys?: readonly string[];
  /**
   * Latency added to every response, in milliseconds. {@link MockService.setLatency} changes it
   * later; {@link MockService.reset} restores this value.
   *
   * @default 0
   */
  latencyMs?: number;
}

/**
 * A running mock of the service: its request handlers, its state, and the knobs tests turn.
 *
 * @example
 * ```ts
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledFrame: 'error' });
 * mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });
 * ```
 */
export interface MockService {
  /** The service root the handlers answer under, without a trailing slash. */
  readonly baseUrl: string;
  /** msw request handlers serving the service; pass them to `setupServer` or `setupWorker`. */
  readonly handlers: readonly HttpHandler[];
  /** Every request received under {@link MockService.baseUrl}, oldest first, rejected and faulted ones included. */
  readonly requests: readonly RecordedRequest[];
  /** A copy of the projects in the store, oldest first. */
  projects(): StoredProject[];
  /**
   * Queues faults; each answers the next request received (any route) in place of the service.
   *
   * @throws RangeError for a status outside 200–599 or a negative delay, and TypeError for an
   * unknown fault kind, at once rather than mid-request.
   * @example
   * ```ts
   * mock.enqueue({ kind: 'network-error' }, { kind: 'status', status: 500 });
   * ```
   */
  enqueue(...faults: Fault[]): void;
  /**
   * Sets the latency added to every response, in milliseconds.
   *
   * @throws RangeError unless `ms` is a finite number >= 0.
   * @example
   * ```ts
   * mock.setLatency(50); // every answer now takes at least 50 ms
   * ```
   */
  setLatency(ms: number): void;
  /**
   * Empties the store, the fault queue, the request log and the idempotency records, restores the
   * latency option, and drops requests still waiting (hang, delay, latency) as network errors.
   */
  reset(): void;
}

/** Defaults of {@link MockServiceOptions}, in one place. */
const DEFAULTS = {
  baseUrl: 'https://agentchat.test/api',
  latencyMs: 0,
} as const;

/**
 * Creates a stateful mock of the service whose msw handlers can run in Node (`msw/node`), in a
 * browser (`msw/browser`) or behind a real HTTP server ({@link startMockServer}).
 *
 * @throws TypeError when `baseUrl` is not an absolute URL, and RangeError when `latencyMs` is
 * negative or not finite.
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService } from 'agentchat/testing';
 *
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledFrame: 'error' });
 * afterEach(() => mock.reset());
 * ```
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  const base = parseBaseUrl(options.baseUrl ?? DEFAULTS.baseUrl);
  const initialLatency = options.latencyMs ?? DEFAULTS.latencyMs;
  assertMilliseconds(initialLatency, 'latencyMs');

  const checkAuth = createBearerCheck(options.apiKeys);
  const store = createProjectStore();
  const idempotency = createIdempotencyRecords();
  let faults: Fault[] = [];
  let log: RecordedRequest[] = [];
  let latencyMs = initialLatency;
  // reset() aborts it, so requests still waiting from before a reset give up instead of
  // answering into the next test.
  let session = new AbortController();

  async function serve(request: Request): Promise<Response> {
    const requestId = randomId('req');
    const url = new URL(request.url);
    const entry: RecordedRequest = {
      method: request.method,
      url: request.url,
      path: url.pathname,
      headers: Object.fromEntries(request.headers),
      body: undefined,
    };
    // Logged and matched to a fault on arrival, before any await, so both follow arrival order.
    log.push(entry);
    const fault = faults.shift();
    if (fault) entry.fault = fault.kind;

    const signal = AbortSignal.any([request.signal, session.signal]);
    const body = classifyBody(await request.text());
    entry.body = recordedBody(body);

    if (fault?.kind === 'hang') {
      await untilAborted(signal);
      return Response.error();
    }
    const delayMs = latencyMs + (fault?.kind === 'delay' ? fault.ms : 0);
    if (!(await wait(delayMs, signal))) return Response.error();
    if (fault?.kind === 'network-error') return Response.error();

    const response =
      fault && fault.kind !== 'delay'
        ? faultResponse(fault, requestId)
        : answer(request, url.pathname, body, requestId);
    response.headers.set('x-request-id', requestId);
    entry.status = response.status;
    return response;
  }

  /** The service proper. Synchronous, so no other request can slip in between its steps. */
  function answer(request: Request, path: string, body: RequestBody, requestId: string): Response {
    const { method } = request;
    const match = findEndpoint(method, base.pathBelow(path) ?? '');
    if (match.kind !== 'endpoint') return fallback(match, method, path, requestId);

    const authProblem = checkAuth(request.headers.get('authorization'));
    if (authProblem) {
      return errorResponse(401, requestId, authProblem, { 'www-authenticate': 'Bearer' });
    }

    // GET is idempotent by nature; keys only matter where a retry could create twice.
    const key = method === 'POST' ? request.headers.get('idempotency-key') : null;
    const keyed = key ? { key, method, path, fingerprint: bodyFingerprint(body) } : undefined;
    if (keyed) {
      const verdict = idempotency.check(keyed);
      if (verdict.kind === 'replay') return verdict.response;
      if (verdict.kind === 'conflict') {
        const message = `Idempotency-Key ${JSON.stringify(keyed.key)} was already used with a different request body`;
        return errorResponse(409, requestId, message);
      }
    }

    const response = match.endpoint.handle({ params: match.params, body, requestId, store });
    // Only successes are kept: a client retrying after a 400 or 404 deserves a fresh answer.
    if (keyed && response.ok) idempotency.save(keyed, response);
    return response;
  }

  // Two URL patterns rather than one predicate: msw 2 takes only strings and regular
  // expressions. `/*` needs the slash, so `/apix` is not served by a mock on `/api`.
  const handlers = [base.url, `${base.url}/*`].map((pattern) =>
    http.all(pattern, ({ request }) => serve(request)),
  );

  return {
    baseUrl: base.url,
    handlers,
    get requests() {
      return [...log];
    },
    projects: () => store.list(),
    enqueue(...added) {
      for (const fault of added) assertFault(fault);
      faults.push(...added);
    },
    setLatency(ms) {
      assertMilliseconds(ms, 'latency');
      latencyMs = ms;
    },
    reset() {
      session.abort();
      session = new AbortController();
      store.clear();
      idempotency.clear();
      faults = [];
      log = [];
      latencyMs = initialLatency;
    },
  };
}

/**
 * Validates `baseUrl` and splits it into what routing needs. Trailing slashes are dropped, so
 * `${baseUrl}/v1` never has two.
 */
function parseBaseUrl(baseUrl: string) {
  if (!URL.canParse(baseUrl)) {
    throw new TypeError(`baseUrl must be an absolute URL, got ${JSON.stringify(baseUrl)}`);
  }
  const { origin, pathname } = new URL(baseUrl);
  const basePath = pathname.replace(/\/+$/, '');

  /** The path after the base path, e.g. `/v1/projects` for `/api/v1/projects`; `undefined` outside. */
  const pathBelow = (path: string): string | undefined =>
    path === basePath || path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;

  return {
    url: origin + basePath,
    pathBelow,
  };
}
