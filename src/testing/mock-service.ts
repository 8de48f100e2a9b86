import { http } from 'msw';
import { createAuthCheck } from './auth.js';
import { bodyFingerprint, parseBody, type RequestBody, recordedBody } from './body.js';
import { errorResponse } from './errors.js';
import { assertFault, assertMilliseconds, faultResponse } from './faults.js';
import { fallback } from './handlers/fallback.js';
import { createIdempotencyRecords } from './idempotency.js';
import { randomId } from './ids.js';
import { matchRoute } from './router.js';
import { createProjectStore } from './store.js';
import type { Fault, MockService, MockServiceOptions, RecordedRequest } from './types.js';
import { untilAborted, wait } from './wait.js';

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

  const checkAuth = createAuthCheck(options.apiKeys);
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
    const body = parseBody(await request.text());
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
    const match = matchRoute(method, base.pathBelow(path) ?? '');
    if (match.kind !== 'route') return fallback(match, method, path, requestId);

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

    const response = match.route.handle({ params: match.params, body, requestId, store });
    // Only successes are kept: a client retrying after a 400 or 404 deserves a fresh answer.
    if (keyed && response.ok) idempotency.save(keyed, response);
    return response;
  }

  const handler = http.all(
    ({ request }) => base.owns(new URL(request.url)),
    ({ request }) => serve(request),
  );

  return {
    baseUrl: base.url,
    handlers: [handler],
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
    owns: (url: URL) => url.origin === origin && pathBelow(url.pathname) !== undefined,
  };
}
