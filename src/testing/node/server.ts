import type { AddressInfo } from 'node:net';
import { getResponse } from 'msw';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { fallback } from '../handlers/fallback.js';
import { findEndpoint } from '../handlers/routing.js';
import { type CorsPolicy, createCorsPolicy } from '../http/cors.js';
import { errorResponse } from '../http/service-error.js';
import {
  createHookedMockService,
  type MockService,
  type MockServiceOptions,
} from '../mock-service.js';
import {
  assertKnownOptions,
  type MockHooks,
  pathBelow,
  positiveWhole,
  SERVICE_OPTION_NAMES,
} from '../options.js';
import { randomId } from '../store/ids.js';
import { closeServer, listen, originOf } from './listening.js';
import { SERVER_DEFAULTS } from './server-defaults.js';

/**
 * Options of {@link startMockServer}: those of the service, plus where to listen.
 *
 * @example
 * ```ts
 * await startMockServer({ port: 4010, apiKeys: ['sk_test'] });
 * ```
 */
export interface MockServerOptions extends Omit<MockServiceOptions, 'baseUrl'> {
  /**
   * Port to listen on; 0 picks any free port.
   *
   * @default 0
   */
  port?: number;
  /**
   * Address to listen on.
   *
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * Path that precedes `/v1`.
   *
   * @default '/api'
   */
  basePath?: string;
  /**
   * How long a client may take to send a whole request, headers and body, in milliseconds; a
   * slower one (a stalled upload, a connection opened and left silent) gets 408 and is
   * disconnected. A connection idle between requests is closed after 60 seconds. Answers are not
   * bounded by it: a `hang` or `delay` fault waits as long as it says.
   *
   * @default 30000
   */
  requestTimeoutMs?: number;
}

/**
 * A mock service listening on a real port.
 *
 * @example
 * ```ts
 * const server = await startMockServer();
 * await fetch(`${server.baseUrl}/v1/projects/proj_1`, { headers: { authorization: 'Bearer sk' } });
 * await server.close();
 * ```
 */
export interface MockServer {
  /** Origin the server listens on, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** {@link MockServer.url} followed by the base path: what a client takes as `baseUrl`. */
  readonly baseUrl: string;
  /** The service behind the server: its store, log, faults and latency. */
  readonly service: MockService;
  /**
   * Stops listening and drops every open connection, hanging requests included. Calling it again
   * returns the same promise.
   *
   * @throws the error of Node's `server.close()`, should closing fail.
   * @example
   * ```ts
   * const server = await startMockServer();
   * afterAll(() => server.close());
   * ```
   */
  close(): Promise<void>;
}

export { SERVER_DEFAULTS };

/** Every option of {@link MockServerOptions}: the service's but `baseUrl`, and where to listen. */
const SERVER_OPTION_NAMES = [
  ...SERVICE_OPTION_NAMES.filter((name) => name !== 'baseUrl'),
  'port',
  'host',
  'basePath',
  'requestTimeoutMs',
] as const;

/**
 * In a variable so that bundlers do not follow it: a browser build of `agentchat/testing` fails
 * on `node:http` (esbuild, webpack) even though only this Node-only function would load it.
 */
const NODE_HTTP = 'node:http';

/** The bridge to Node's HTTP server, loaded with it: no browser bundle needs to carry it. */
const loadBridge = () => import('./fetch-bridge.js');

/**
 * Starts the mock service as an HTTP server, for clients that cannot use msw: other processes,
 * other languages, curl.
 *
 * As a server it is bounded whatever a client sends: request bodies over `maxRequestBytes` get
 * 413 and are read no further, the request log keeps the latest `requestLogLimit` requests, and
 * a client slower than `requestTimeoutMs` to send its request is disconnected.
 *
 * @throws Error with a one-line message and the listen error's `code` (such as `EADDRINUSE` for
 * a port in use) when the port cannot be bound; ConfigurationError for an unknown option, for
 * a port outside 0–65535 or a `requestTimeoutMs` that is not a positive whole number; and the
 * errors of {@link createMockService} for invalid options.
 * @example
 * ```ts
 * import { startMockServer } from 'agentchat/testing';
 *
 * const server = await startMockServer({ port: 4010 });
 * console.log(server.baseUrl); // http://127.0.0.1:4010/api
 * ```
 */
export function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  return startHookedMockServer(options, {});
}

/** {@link startMockServer} with the hooks `agentchat-mock` listens on. */
export async function startHookedMockServer(
  options: MockServerOptions,
  hooks: MockHooks,
): Promise<MockServer> {
  // Before listening, so a mistyped option never leaves a port bound.
  assertKnownOptions(options, SERVER_OPTION_NAMES, 'startMockServer');
  const {
    port = SERVER_DEFAULTS.port,
    host = SERVER_DEFAULTS.host,
    basePath = SERVER_DEFAULTS.basePath,
    requestTimeoutMs = SERVER_DEFAULTS.requestTimeoutMs,
    ...serviceOptions
  } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigurationError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  positiveWhole(requestTimeoutMs, 'requestTimeoutMs', 'milliseconds');
  // Loaded here rather than at the top so that `agentchat/testing` stays importable in a browser.
  const [{ createServer, STATUS_CODES }, { createBridge }] = await Promise.all([
    import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_HTTP) as Promise<
      typeof import('node:http')
    >,
    loadBridge(),
  ]);
  const server = createServer({
    // Node's own bounds on a slow client: the headers, then the whole request, within the
    // timeout, checked often enough that a short timeout is kept to within a quarter of it.
    headersTimeout: requestTimeoutMs,
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, Math.max(10, requestTimeoutMs / 4)),
    // Idle connections kept a minute, not Node's 5 s. fetch reuses one until shortly before the
    // advertised keep-alive ends; with 5 s, a test suite on a busy machine writes a request into a
    // connection just as the server closes it, and fails with ECONNRESET. close() drops them all.
    keepAliveTimeout: 60_000,
  });
  await listen(server, port, host);

  const url = originOf(server.address() as AddressInfo);
  const servicePath = normalizeBasePath(basePath);
  let service: MockService;
  let cors: CorsPolicy;
  try {
    service = createHookedMockService({ ...serviceOptions, baseUrl: url + servicePath }, hooks);
    // Checked by the service just now, which refuses both names at once.
    cors = createCorsPolicy(
      serviceOptions.allowedOrigins ?? serviceOptions.corsOrigins,
      hooks.onCorsRefusal,
    );
  } catch (error) {
    await closeServer(server);
    throw error;
  }
  const answer = async (request: Request) =>
    (await getResponse([...service.handlers], request)) ??
    serverAnswer(
      404,
      `No route for ${request.method} ${request.url.slice(url.length)}; the service is under ${service.baseUrl}`,
      (response) => cors.decorate(request, response),
    );
  // A method fetch cannot carry never reaches the service's handlers: routed here the same way,
  // so a known path still answers 405 with the methods it takes.
  const refuseMethod = (method: string, path: string) => {
    const below = pathBelow(servicePath, path);
    if (below === undefined) return serverAnswer(404, `No route for ${method} ${path}`);
    const match = findEndpoint(method, below);
    const requestId = randomId('req');
    const response =
      match.kind === 'endpoint'
        ? errorResponse(405, requestId, { message: `${method} is not allowed on ${path}` })
        : fallback(match, method, path, requestId);
    response.headers.set('x-request-id', requestId);
    return response;
  };
  const serve = createBridge({
    origin: url,
    answer,
    refuseMethod,
    refuse: (status, message) => serverAnswer(status, message),
    reasons: STATUS_CODES,
  });
  server.on('request', (req, res) => {
    // A failure while streaming the answer can only cut it short; never crash the host process.
    serve(req, res).catch(() => res.destroy());
  });

  let closing: Promise<void> | undefined;
  return {
    url,
    baseUrl: service.baseUrl,
    service,
    close: () => {
      closing ??= closeServer(server);
      return closing;
    },
  };
}

/**
 * An error from the server itself, for requests the service never saw; still with a request id,
 * and readable from another origin where the request allows it.
 */
function serverAnswer(
  status: number,
  message: string,
  decorate: (response: Response) => void = () => {},
): Response {
  const requestId = randomId('req');
  const response = errorResponse(status, requestId, { message });
  response.headers.set('x-request-id', requestId);
  decorate(response);
  return response;
}

/** `/api`, `api/` and `/api/` all mean `/api`; `/` and `` mean the root. */
function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `/${trimmed}`;
}
