import { type HttpHandler, http } from 'msw';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { warnDeprecated } from '../internal/deprecated.js';
import { builtInAgent } from './agent.js';
import { applyFault } from './faults/apply-fault.js';
import type { Fault, FaultAnswer } from './faults/fault.js';
import { createFaultQueue } from './faults/fault-queue.js';
import type { EndpointContext } from './handlers/endpoint.js';
import { fallback } from './handlers/fallback.js';
import { issueToken } from './handlers/oauth/token.js';
import {
  createOverrides,
  type MockOperation,
  type OverrideHandler,
  type OverrideOptions,
} from './handlers/overrides.js';
import { type EndpointMatch, findEndpoint } from './handlers/routing.js';
import { runOverride } from './handlers/run-override.js';
import { callerOf, createBearerCheck } from './http/bearer.js';
import { createCorsPolicy } from './http/cors.js';
import { type Exchange, readableCopy } from './http/exchange.js';
import {
  bodyFingerprint,
  classifyBody,
  type RequestBody,
  readBodyText,
  recordedBody,
  TOO_LARGE,
} from './http/request-body.js';
import { errorResponse } from './http/service-error.js';
import { assertMilliseconds } from './http/wait.js';
import { createIdentityVerifier } from './identity/trusted-issuers.js';
import { assertNodeRunsMsw } from './node-version.js';
import { checkServiceOptions, type MockHooks, type MockServiceOptions } from './options.js';
import { createIdempotencyRecords, type IdempotencyClaim } from './store/idempotency.js';
import { randomId } from './store/ids.js';
import { createClientRegistry } from './store/oauth-clients.js';
import { createProjectStore, type StoredProject } from './store/projects.js';
import { createRequestLog, type RecordedRequest } from './store/request-log.js';
import { createTokenStore, type IssuedToken } from './store/tokens.js';

export type { MockServiceOptions } from './options.js';

// On a Node.js older than the installed msw needs, fail when agentchat/testing is imported, with
// the version to install, rather than on every request with msw's own cryptic error.
assertNodeRunsMsw();

/**
 * A running mock of the service: its request handlers, its state, and the knobs tests turn.
 *
 * @example
 * ```ts
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * strictListen(server);
 * mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });
 * ```
 */
export interface MockService {
  /** The service root the handlers answer under, without a trailing slash. */
  readonly baseUrl: string;
  /** msw request handlers serving the service; pass them to `setupServer` or `setupWorker`. */
  readonly handlers: readonly HttpHandler[];
  /**
   * The latest requests received under {@link MockService.baseUrl} (1000 unless the
   * `requestLogLimit` option says otherwise), oldest first, rejected and faulted ones and token
   * requests included, each body kept up to 16 KiB. CORS preflights are not service requests and
   * are left out. A new array at each call: later requests are not added to one already read.
   *
   * @example
   * ```ts
   * await client.projects.create({ name: 'Demo', agentId: 'agent_1' });
   * expect(mock.requestLog().map(({ method, path }) => `${method} ${path}`)).toEqual([
   *   'POST /api/v1/projects',
   * ]);
   * ```
   */
  requestLog(): RecordedRequest[];
  /**
   * The latest requests received, as {@link MockService.requestLog} answers them.
   *
   * @deprecated Use `mock.requestLog()`, a method like `mock.projects()` and
   * `mock.oauth.tokens()`. Kept until 2.0.
   */
  readonly requests: readonly RecordedRequest[];
  /** The token endpoint's issued access tokens, and controls to end them early. */
  readonly oauth: MockOAuth;
  /**
   * A copy of the projects in the store, oldest first: the latest 10,000 at the most, and 32 MiB
   * of them (see the testing guide's Limits).
   */
  projects(): StoredProject[];
  /**
   * Queues faults. Each answers, in place of the service, the next request received, or with a
   * `path`, the next request to that path.
   *
   * @throws ConfigurationError for a status outside 200–599, a negative delay, an unknown fault
   * kind or a path not starting with `/`, at once rather than mid-request.
   * @example
   * ```ts
   * mock.enqueue({ kind: 'network-error' }, { kind: 'status', status: 500 });
   * mock.enqueue({ kind: 'status', status: 503, path: '/oauth/token' });
   * ```
   */
  enqueue(...faults: Fault[]): void;
  /**
   * Answers one operation, named as the SDK's method, in place of the service: with a success
   * body of the SDK's type for that operation, or a {@link FaultAnswer}. It is given the path's
   * `params`, a copy of the `project` they name (if stored) and the `request`. It answers every
   * request to the operation until {@link MockService.reset}, or with `{ once: true }` only the
   * next; one-time overrides go first, in the order added. It runs after the API key check, in
   * place of the operation's own checks. A body a `projects.create` override answers is stored
   * (with the request's `agentId` and `metadata`), so `projects.get` finds it.
   *
   * A body off the operation's response shape, or an override that throws, is answered as a
   * 500 whose message says why, never as a silently wrong response.
   *
   * @throws ConfigurationError for an unknown operation or a handler that is not a function.
   * @example
   * ```ts
   * mock.override('chat.send', ({ project }) => ({
   *   message: `${project?.name} is closed today`,
   *   suggestions: ['Open a ticket'],
   * }));
   * mock.override('projects.get', () => ({ kind: 'status', status: 503 }), { once: true });
   * ```
   */
  override<O extends MockOperation>(
    operation: O,
    handler: OverrideHandler<O>,
    options?: OverrideOptions,
  ): void;
  /**
   * Sets the latency added to every response, in milliseconds.
   *
   * @throws ConfigurationError unless `ms` is a finite number >= 0.
   * @example
   * ```ts
   * mock.setLatency(50); // every answer now takes at least 50 ms
   * ```
   */
  setLatency(ms: number): void;
  /**
   * Restores the store to the seeded projects (none unless the `projects` option gave some),
   * empties the issued tokens, the fault queue, the overrides, the request log and the
   * idempotency records, restores the latency option, and drops requests still waiting (hang,
   * delay, latency) as network errors.
   *
   * @example
   * ```ts
   * afterEach(() => mock.reset());
   * ```
   */
  reset(): void;
}

/**
 * The mock's OAuth 2.0 side: the access tokens its token endpoint `POST {baseUrl}/oauth/token`
 * issued, and ways to end them before their time.
 *
 * @example
 * ```ts
 * const project = await client.projects.create({ name: 'Demo', agentId: 'agent_1' });
 * mock.oauth.expireTokens();
 * // A client whose apiKey is an OAuth token provider gets a 401, a fresh token, then the project.
 * await client.projects.get(project.id);
 * expect(mock.oauth.tokens()).toHaveLength(2);
 * ```
 */
export interface MockOAuth {
  /** Copies of the issued tokens, oldest first, with their expiry. */
  tokens(): IssuedToken[];
  /**
   * How many requests the token endpoint received since the last reset, refused and faulted ones
   * included: what a shared token cache saves.
   *
   * @example
   * ```ts
   * // A client whose apiKey is an OAuth token provider: one token for every call.
   * const project = await client.projects.create({ name: 'Demo', agentId: 'agent_1' });
   * await Promise.all([client.projects.get(project.id), client.projects.get(project.id)]);
   * expect(mock.oauth.tokenRequests()).toBe(1);
   * ```
   */
  tokenRequests(): number;
  /** Makes every issued token expire now: the service answers 401 to each from then on. */
  expireTokens(): void;
  /**
   * Revokes one token: the service answers 401 to it from then on.
   *
   * @returns `false` when the mock never issued that token.
   * @throws ConfigurationError when `accessToken` is not a string.
   * @example
   * ```ts
   * const [issued] = mock.oauth.tokens();
   * if (issued) mock.oauth.revokeToken(issued.accessToken);
   * ```
   */
  revokeToken(accessToken: string): boolean;
}

/**
 * Creates a stateful mock of the service whose msw handlers can run in Node (`msw/node`), in a
 * browser (`msw/browser`) or behind a real HTTP server ({@link startMockServer}).
 *
 * @throws ConfigurationError for an invalid option (see {@link MockServiceOptions}).
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService, strictListen } from 'agentchat/testing';
 *
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * strictListen(server);
 * afterEach(() => mock.reset());
 * ```
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  return createHookedMockService(options, {});
}

/** {@link createMockService} with the hooks a host such as `agentchat-mock` listens on. */
export function createHookedMockService(
  options: MockServiceOptions,
  hooks: MockHooks,
): MockService {
  const {
    base,
    latencyMs: initialLatency,
    tokenLifetimeMs,
    allowedOrigins,
    allowedOriginsName,
    maxRequestBytes,
    requestLogLimit,
    projects: seeded,
    trustedIssuers,
    audience,
  } = checkServiceOptions(options);
  const projects = createProjectStore(seeded);
  const agent = options.agent ?? builtInAgent;
  const overrides = createOverrides();
  // An identity token names the token endpoint it is meant for, as RFC 7523 section 3 asks.
  const audiences = [
    `${base.url}${issueToken.path}`,
    ...(audience === undefined ? [] : [audience]),
  ];
  const oauth = {
    clients: createClientRegistry(options.oauthClients),
    tokens: createTokenStore(tokenLifetimeMs),
    ...(trustedIssuers === undefined || trustedIssuers.length === 0
      ? {}
      : { identities: createIdentityVerifier(trustedIssuers, audiences) }),
  };
  const checkBearer = createBearerCheck(options.apiKeys, oauth.tokens);
  const cors = createCorsPolicy(allowedOrigins, hooks.onCorsRefusal, allowedOriginsName);
  const idempotency = createIdempotencyRecords();
  const faults = createFaultQueue();
  const log = createRequestLog(requestLogLimit);
  // Counted apart from the log, which keeps only the latest requests.
  let tokenRequests = 0;
  let latencyMs = initialLatency;
  // reset() aborts it, so requests still waiting from before a reset give up instead of
  // answering into the next test.
  let session = new AbortController();

  async function serve(request: Request): Promise<Response> {
    const requestId = randomId('req');
    // Permission for a browser to send the real request; not a call to the service, so it takes
    // no fault, waits no latency and stays out of the log.
    if (cors.isPreflight(request))
      return withRequestId(cors.preflight(request, requestId), requestId);

    const url = new URL(request.url);
    const path = base.pathBelow(url.pathname) ?? '';
    const entry: RecordedRequest = {
      requestId,
      method: request.method,
      url: request.url,
      path: url.pathname,
      headers: Object.fromEntries(request.headers),
      body: undefined,
    };
    // Everything that depends on arrival order happens here, before any await: the log entry,
    // the fault, and the hold on an Idempotency-Key while this request is processed.
    log.add(entry);
    if (path === issueToken.path) tokenRequests++;
    const fault = faults.take(path);
    if (fault) entry.fault = fault.kind;
    const match = findEndpoint(request.method, path);
    const claim = claimIdempotencyKey(request, match, path);

    try {
      const signal = AbortSignal.any([request.signal, session.signal]);
      const text = await readBodyText(request, maxRequestBytes);
      if (text === TOO_LARGE) {
        // Before anything else: the fault this request took goes back for the next one.
        if (fault) faults.putBack(fault);
        delete entry.fault;
        return answered(entry, request, tooLarge(requestId));
      }
      const body = classifyBody(text);
      Object.assign(entry, recordedBody(body));
      const exchange: Exchange = { request, entry, body, requestId, signal };

      const response = await applyFault(fault, exchange, latencyMs, () =>
        answer(exchange, match, claim),
      );
      // A dropped connection: its headers cannot be set, and it has no status to log.
      if (response.type === 'error') return response;
      return answered(entry, request, response);
    } finally {
      claim?.release();
    }
  }

  /** Completes a response with the request id and CORS headers, and logs its status. */
  function answered(entry: RecordedRequest, request: Request, response: Response): Response {
    withRequestId(response, entry.requestId);
    cors.decorate(request, response);
    entry.status = response.status;
    return response;
  }

  /** The 413 for a body over `maxRequestBytes`, saying which option raises the limit. */
  function tooLarge(requestId: string): Response {
    return errorResponse(413, requestId, {
      message: `The request body is over the mock's limit of ${maxRequestBytes} bytes (the maxRequestBytes option, or agentchat-mock --max-request-bytes)`,
    });
  }

  /**
   * Takes the request's Idempotency-Key on arrival, where one applies: POSTs to the service, with
   * a key (an empty one is refused later, once the caller is authenticated) and a caller.
   */
  function claimIdempotencyKey(
    request: Request,
    match: EndpointMatch,
    path: string,
  ): IdempotencyClaim | undefined {
    const key = request.headers.get('idempotency-key');
    if (!key || !takesIdempotencyKey(request, match)) return undefined;
    const caller = callerOf(request.headers.get('authorization'), oauth.tokens);
    if (caller === undefined) return undefined;
    return idempotency.claim({ caller, key, method: request.method, path });
  }

  /**
   * The service proper. Nothing awaits between routing, the key check and the store, but a
   * scripted agent or an override; during those the request's Idempotency-Key stays claimed.
   */
  async function answer(
    exchange: Exchange,
    match: EndpointMatch,
    claim: IdempotencyClaim | undefined,
  ): Promise<Response> {
    const { request, body, requestId } = exchange;
    if (match.kind !== 'endpoint') {
      return fallback(match, request.method, new URL(request.url).pathname, requestId);
    }
    const { endpoint, params } = match;

    if (endpoint.authentication === 'bearer') {
      const refusal = checkBearer(request.headers.get('authorization'));
      if (refusal) {
        return errorResponse(401, requestId, {
          message: refusal.message,
          headers: { 'www-authenticate': refusal.challenge },
        });
      }
    }

    // As docs/openapi.yaml says (`minLength: 1`): an empty key would be one key shared by every
    // request sent with it, replaying one caller's answer to another.
    if (request.headers.get('idempotency-key') === '' && takesIdempotencyKey(request, match)) {
      return errorResponse(400, requestId, {
        message:
          'Idempotency-Key is empty; send a non-empty key (a UUID, say), or no Idempotency-Key header',
      });
    }

    const context: EndpointContext = {
      params,
      headers: request.headers,
      body,
      requestId,
      projects,
      oauth,
      agent,
      readableRequest: () => readableCopy(request, body),
    };
    const { operation } = endpoint;
    const handle = () => {
      // Taken only here, so a one-time override is not spent on a 409, a 422 or a replay.
      const override = operation && overrides.take(operation);
      const normal = () => endpoint.handle(context);
      return override && operation
        ? runOverride(operation, override, exchange, params, projects, normal)
        : normal();
    };
    return claim ? answerOnce(claim, handle, body, requestId) : handle();
  }

  /**
   * The IETF draft "The Idempotency-Key HTTP Header Field": 409 while the key's first request is
   * processed (worth retrying), 422 for the key reused with another body (never worth it), the
   * first successful answer replayed for the same body, else a fresh answer.
   */
  async function answerOnce(
    claim: IdempotencyClaim,
    handle: () => Response | Promise<Response>,
    body: RequestBody,
    requestId: string,
  ): Promise<Response> {
    const key = JSON.stringify(claim.scope.key);
    if (claim.busy) {
      return errorResponse(409, requestId, {
        type: 'idempotency_error',
        message: `A request with Idempotency-Key ${key} is still being processed; retry once it has been answered`,
      });
    }
    const keyed = { ...claim.scope, fingerprint: bodyFingerprint(body) };
    const verdict = idempotency.check(keyed);
    if (verdict.kind === 'replay') return verdict.response;
    if (verdict.kind === 'different-body') {
      return errorResponse(422, requestId, {
        type: 'idempotency_error',
        message: `Idempotency-Key ${key} was already used with a different request body`,
      });
    }
    const response = await handle();
    // Only successes are kept: a client retrying after a 400 or 404 deserves a fresh answer.
    if (response.ok) await idempotency.save(keyed, response);
    return response;
  }

  // A regular expression rather than a predicate, which msw 2 does not take, or a path pattern,
  // which msw refuses to match against URLs over 8 KB. `/apix` is not served by a mock on `/api`.
  const handlers = [http.all(urlPattern(base.url), ({ request }) => serve(request))];

  return {
    baseUrl: base.url,
    handlers,
    requestLog: () => log.list(),
    get requests() {
      warnDeprecated('mock.requests', 'mock.requestLog()');
      return log.list();
    },
    oauth: {
      tokens: () => oauth.tokens.list(),
      tokenRequests: () => tokenRequests,
      expireTokens: () => oauth.tokens.expireAll(),
      revokeToken(accessToken) {
        if (typeof accessToken !== 'string') {
          throw new ConfigurationError(
            `revokeToken takes an access token string, got ${typeof accessToken}`,
          );
        }
        return oauth.tokens.revoke(accessToken);
      },
    },
    projects: () => projects.list(),
    enqueue: (...added) => faults.add(added),
    override: (operation, handler, overrideOptions) =>
      overrides.add(operation, handler, overrideOptions),
    setLatency(ms) {
      assertMilliseconds(ms, 'latency');
      latencyMs = ms;
    },
    reset() {
      session.abort();
      session = new AbortController();
      projects.reset();
      overrides.clear();
      oauth.tokens.clear();
      idempotency.clear();
      faults.clear();
      log.clear();
      tokenRequests = 0;
      latencyMs = initialLatency;
    },
  };
}

/** Whether a request's Idempotency-Key counts: POSTs to the service's operations. */
function takesIdempotencyKey(request: Request, match: EndpointMatch): boolean {
  return (
    request.method === 'POST' &&
    match.kind === 'endpoint' &&
    match.endpoint.authentication === 'bearer'
  );
}

/** Matches the base URL and every URL below it; msw matches it against URLs without query. */
function urlPattern(baseUrl: string): RegExp {
  const escaped = baseUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`^${escaped}(?:/.*)?$`);
}

function withRequestId(response: Response, requestId: string): Response {
  response.headers.set('x-request-id', requestId);
  return response;
}
