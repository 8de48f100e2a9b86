import type { APIPromise } from './core/api-promise.js';
import type { HttpMethod } from './core/call.js';
import { ClientWait } from './core/client-wait.js';
import { bearerCredential } from './core/credential.js';
import {
  type CustomRequest,
  type CustomRequestOptions,
  sendCustomRequest,
} from './core/custom-request.js';
import {
  AgentChatError,
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  cut,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
} from './core/errors/index.js';
import { fetchOptionsProblem } from './core/fetch-options.js';
import { createLog, isLogLevel, logsAt } from './core/logger.js';
import type { Caller } from './core/middleware.js';
import {
  type ClientOptions,
  clientOptionsSchema,
  headerRecord,
  urlCharacters,
} from './core/options.js';
import { RetryBudget } from './core/retry-budget.js';
import { retryDefaults } from './core/retry-policy.js';
import type { StandardSchemaV1, StandardSchemaV1InferOutput } from './core/standard-schema.js';
import { Transport } from './core/transport.js';
import { validate } from './core/validation.js';
import { readEnv } from './internal/env.js';
import { isBrowserLike, isLoopback, userAgent } from './internal/platform.js';
import { Chat } from './resources/chat.js';
import { Projects } from './resources/projects.js';

/**
 * The client's defaults, in one place (the retry policy's numbers live in `retryDefaults`).
 *
 * @example
 * ```ts
 * // Twice the default timeout for a slow agent.
 * const client = new Client({ timeout: clientDefaults.timeout * 2 });
 * ```
 */
export const clientDefaults = {
  /** Retries after the first attempt. */
  maxRetries: retryDefaults.maxRetries,
  /** How long one attempt may take, in ms. */
  timeout: 60_000,
  /** The largest response body read, in bytes, after content decoding (10 MiB). */
  maxResponseBytes: 10 * 1024 * 1024,
  /** How much is logged: only what needs fixing. */
  logLevel: 'warn',
} as const;

/**
 * The key of {@link Client}'s method that makes its operations for one request of agentchat/mcp:
 * with the caller's key (pass-through), or with the client's own and the verified caller told to
 * middleware. A registered symbol, so that agentchat/mcp reaches it on a client of its own
 * package without it being public.
 *
 * @internal
 */
export const forRequest: unique symbol = Symbol.for('agentchat.forRequest');

/**
 * What a client family shares: the retry budget and the wait the service asked of it. A client
 * keeps it among the options `withOptions` copies, under a symbol of this module's own: no caller
 * can pass one, and the options' check, which reads string keys, never sees it.
 */
const FAMILY = Symbol('family');
interface Family {
  /** The service the family calls: a client made for another one starts a family of its own. */
  readonly baseUrl: string;
  /** The `retryBudget` option the bucket was made from; a child that sets another gets its own. */
  readonly option: ClientOptions['retryBudget'];
  readonly retryBudget: RetryBudget | undefined;
  readonly clientWait: ClientWait;
}

/**
 * The client for the Project and Agent Chat service.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 *
 * const client = new Client({ apiKey: process.env.AGENTCHAT_API_KEY, baseUrl: 'https://host/api' });
 * const project = await client.projects.create({ name: 'Support', agentId: 'agent_42' });
 * const reply = await client.chat.send({ projectId: project.id, message: 'Hello!' });
 * console.log(reply.message);
 * ```
 */
export class Client {
  // The error classes, also reachable from the class as openai-node's users expect
  // (`error instanceof Client.NotFoundError`); set below the class. OAuthError is not among them:
  // it would put the OAuth provider's error into every app, which only clientCredentials() throws.
  /** {@link AgentChatError}, as a static member. */
  declare static readonly AgentChatError: typeof AgentChatError;
  /** {@link ConfigurationError}, as a static member. */
  declare static readonly ConfigurationError: typeof ConfigurationError;
  /** {@link APIError}, as a static member. */
  declare static readonly APIError: typeof APIError;
  /** {@link BadRequestError}, as a static member. */
  declare static readonly BadRequestError: typeof BadRequestError;
  /** {@link AuthenticationError}, as a static member. */
  declare static readonly AuthenticationError: typeof AuthenticationError;
  /** {@link PermissionDeniedError}, as a static member. */
  declare static readonly PermissionDeniedError: typeof PermissionDeniedError;
  /** {@link NotFoundError}, as a static member. */
  declare static readonly NotFoundError: typeof NotFoundError;
  /** {@link ConflictError}, as a static member. */
  declare static readonly ConflictError: typeof ConflictError;
  /** {@link UnprocessableEntityError}, as a static member. */
  declare static readonly UnprocessableEntityError: typeof UnprocessableEntityError;
  /** {@link RateLimitError}, as a static member. */
  declare static readonly RateLimitError: typeof RateLimitError;
  /** {@link InternalServerError}, as a static member. */
  declare static readonly InternalServerError: typeof InternalServerError;
  /** {@link APIConnectionError}, as a static member. */
  declare static readonly APIConnectionError: typeof APIConnectionError;
  /** {@link APITimeoutError}, as a static member. */
  declare static readonly APITimeoutError: typeof APITimeoutError;
  /** {@link APIUserAbortError}, as a static member. */
  declare static readonly APIUserAbortError: typeof APIUserAbortError;
  /** {@link RedirectError}, as a static member. */
  declare static readonly RedirectError: typeof RedirectError;
  /** {@link ResponseTooLargeError}, as a static member. */
  declare static readonly ResponseTooLargeError: typeof ResponseTooLargeError;
  /** {@link RequestValidationError}, as a static member. */
  declare static readonly RequestValidationError: typeof RequestValidationError;
  /** {@link ResponseValidationError}, as a static member. */
  declare static readonly ResponseValidationError: typeof ResponseValidationError;

  // Declared, and set by the constructor (see APIError).
  /** Create and read projects. */
  declare readonly projects: Projects;
  /** Chat with a project's agent. */
  declare readonly chat: Chat;
  /** The service root requests go to (before `/v1`), without a trailing slash. */
  declare readonly baseUrl: string;
  /** How many times a failed attempt is retried, unless a call says otherwise. */
  declare readonly maxRetries: number;
  /** How long one attempt may take, in ms, unless a call says otherwise. */
  declare readonly timeout: number;
  /** The options as given, with the key and base URL as resolved, for {@link Client.withOptions}. */
  readonly #options: ClientOptions;
  /**
   * Sends every call: the operations' and {@link Client.request}'s. Its ky instance is shared by
   * the operations made by `forRequest`.
   */
  readonly #transport: Transport;

  /**
   * Creates a client. Nothing is sent until the first call.
   *
   * @throws {@link ConfigurationError} when an option is invalid, `apiKey` or `baseUrl` is missing
   * from both the options and the environment, or in a browser without `dangerouslyAllowBrowser`.
   * @example
   * ```ts
   * // AGENTCHAT_API_KEY and AGENTCHAT_BASE_URL supply what the options leave out.
   * const client = new Client({ maxRetries: 5 });
   * ```
   */
  constructor(options: ClientOptions = {}) {
    const checked = validate(clientOptionsSchema, options);
    if (!checked.ok) {
      const list = checked.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      throw new ConfigurationError(`Invalid Client options: ${list}`);
    }
    const fetchProblem =
      options.fetchOptions === undefined ? undefined : fetchOptionsProblem(options.fetchOptions);
    if (fetchProblem) throw new ConfigurationError(`Invalid Client options: ${fetchProblem}`);
    const browser = isBrowserLike();
    if (browser && options.dangerouslyAllowBrowser !== true) {
      throw new ConfigurationError(
        'Client refuses to run in a browser, where anyone who opens the page can read the API key. ' +
          'Call the service from your backend, or set dangerouslyAllowBrowser: true if the key is ' +
          'short-lived or user-scoped. See node_modules/agentchat/docs/browsers.md or ' +
          'https://github.com/agentchat/agentchat-js/blob/main/docs/browsers.md.',
      );
    }
    const apiKey = options.apiKey ?? readEnv('AGENTCHAT_API_KEY');
    if (apiKey === undefined) {
      throw new ConfigurationError(
        'Missing API key: pass the apiKey option or set the AGENTCHAT_API_KEY environment variable.',
      );
    }
    const baseUrl = resolveBaseUrl(options.baseUrl ?? readEnv('AGENTCHAT_BASE_URL'));
    this.baseUrl = baseUrl;
    this.maxRetries = options.maxRetries ?? clientDefaults.maxRetries;
    this.timeout = options.timeout ?? clientDefaults.timeout;
    // Copies, so that neither the caller nor a derived client can change this one's settings.
    const headers = headerRecord(options.headers);
    const middleware = [...(options.middleware ?? [])];
    // A client made by withOptions shares its parent's budget and wait, unless it calls another
    // service; one that sets retryBudget gets a bucket of its own (or none).
    const parent = (options as { [FAMILY]?: Family })[FAMILY];
    const sameService = parent?.baseUrl === baseUrl;
    const family: Family = {
      baseUrl,
      option: options.retryBudget,
      retryBudget:
        sameService && parent.option === options.retryBudget
          ? parent.retryBudget
          : createRetryBudget(options.retryBudget),
      clientWait: sameService ? parent.clientWait : new ClientWait(),
    };
    this.#options = {
      ...options,
      apiKey,
      baseUrl,
      headers,
      middleware,
      [FAMILY]: family,
    } as ClientOptions;
    const envLevel = readEnv('AGENTCHAT_LOG');
    const logLevel =
      options.logLevel ?? (isLogLevel(envLevel) ? envLevel : clientDefaults.logLevel);
    const log = createLog(options.logger ?? globalThis.console, logLevel);
    const { protocol, hostname } = new URL(baseUrl);
    if (protocol === 'http:' && !isLoopback(hostname)) {
      log?.(
        'warn',
        `baseUrl ${cut(baseUrl)} is plain http to a host other than this machine: the API key travels in clear text. Use https.`,
      );
    }
    const agent = userAgent(options.appInfo);
    const transport = new Transport({
      // The retry budget and the client wait this client shares with its family.
      ...family,
      credential: bearerCredential(apiKey, log, agent),
      baseUrl,
      maxRetries: this.maxRetries,
      timeout: this.timeout,
      totalTimeout: options.totalTimeout,
      maxResponseBytes: options.maxResponseBytes ?? clientDefaults.maxResponseBytes,
      headers,
      middleware,
      fetch: options.fetch,
      // A copy, so that a caller's object changed afterwards changes nothing.
      fetchOptions: options.fetchOptions && { ...options.fetchOptions },
      userAgent: agent,
      // The transport writes only info and debug lines: at a quieter level (the default) it gets
      // no log, and builds no line per attempt for nobody.
      log: logsAt(logLevel, 'info') ? log : undefined,
    });
    this.#transport = transport;
    this.projects = new Projects(transport);
    this.chat = new Chat(transport);
  }

  /**
   * The operations of this client called with another, fixed `apiKey` (or this client's own, when
   * `undefined`) and for `caller`: everything else (base URL, retries, timeouts, headers,
   * middleware, logger) and the ky instance are this client's, so no option is checked and no ky
   * instance is made again. For agentchat/mcp over HTTP, which makes one per request.
   *
   * @internal
   */
  [forRequest](apiKey: string | undefined, caller?: Caller): Pick<Client, 'projects' | 'chat'> {
    const transport = this.#transport.forRequest(apiKey, caller);
    return { projects: new Projects(transport), chat: new Chat(transport) };
  }

  /**
   * Calls an endpoint this SDK does not know yet, at any path below `baseUrl`, exactly as the
   * operations are called: the key (or token) on each attempt, an `Idempotency-Key` on every
   * method but `GET`, the same retries, timeouts, middleware, logging and errors. Resolves to the
   * parsed JSON body as `unknown`, or, given a `schema` (any Standard Schema: zod, valibot,
   * arktype), to the body it validated, typed by it. `.withResponse()` works as on the operations.
   *
   * Build `path` with the {@link path} tag; a path that could leave the route it names or the
   * service's origin is refused before anything is sent.
   *
   * @throws {@link RequestValidationError} when the request or an option is invalid (nothing is sent).
   * @throws {@link ResponseValidationError} when a 2xx body is not JSON or fails the `schema`.
   * @throws {@link APIError} (a subclass per status), {@link APIConnectionError},
   * {@link APITimeoutError} and {@link APIUserAbortError} as their names say.
   * @example
   * ```ts
   * import * as z from 'zod/mini';
   *
   * const members = await client.request(
   *   { method: 'GET', path: path`/v1/projects/${'proj_123'}/members`, query: { limit: 20 } },
   *   { schema: z.array(z.object({ id: z.string(), role: z.string() })) },
   * );
   * console.log(members[0]?.role);
   * ```
   */
  request<
    Schema extends StandardSchemaV1 = StandardSchemaV1<unknown>,
    Method extends HttpMethod = HttpMethod,
  >(
    request: CustomRequest<Method>,
    options?: CustomRequestOptions<Schema>,
  ): APIPromise<StandardSchemaV1InferOutput<Schema>> {
    return sendCustomRequest(this.#transport, request, options);
  }

  /**
   * A new client with some options replaced and the rest as this one has them. The two share
   * nothing that either can change; a token provider given as `apiKey` is shared, and with it
   * its cached token.
   *
   * @throws {@link ConfigurationError} when a replaced option is invalid.
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 120_000, maxRetries: 5 });
   * await patient.chat.send({ projectId: 'proj_123', message: 'Summarise the last year' });
   * ```
   */
  withOptions(overrides: ClientOptions): Client {
    return new Client({ ...this.#options, ...overrides });
  }

  /** Shows the client without its key, in `util.inspect` and `console.log`. */
  [Symbol.for('nodejs.util.inspect.custom')](
    _depth: number,
    options: object,
    inspect: (value: unknown, options: object) => string,
  ): string {
    return `Client ${inspect(this.toJSON(), options)}`;
  }

  /** Serialises the client without its key. */
  toJSON(): {
    /** The service root requests go to. */
    baseUrl: string;
    /** How many times a failed attempt is retried. */
    maxRetries: number;
    /** How long one attempt may take, in ms. */
    timeout: number;
  } {
    return { baseUrl: this.baseUrl, maxRetries: this.maxRetries, timeout: this.timeout };
  }
}

// The error classes as statics of Client (declared in the class), each under its own name.
for (const error of [
  AgentChatError,
  ConfigurationError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  RedirectError,
  ResponseTooLargeError,
  RequestValidationError,
  ResponseValidationError,
]) {
  (Client as unknown as Record<string, unknown>)[error.errorName] = error;
}

/** The retry budget the option asks for: the defaults, tuned, or none. */
function createRetryBudget(option: ClientOptions['retryBudget']): RetryBudget | undefined {
  if (option === false) return undefined;
  const defaults = retryDefaults.retryBudget;
  return new RetryBudget(
    option?.capacity ?? defaults.capacity,
    option?.retryCost ?? defaults.retryCost,
    option?.timeoutCost ?? defaults.timeoutCost,
  );
}

function resolveBaseUrl(baseUrl: string | undefined): string {
  if (baseUrl === undefined) {
    throw new ConfigurationError(
      'Missing base URL: pass the baseUrl option or set the AGENTCHAT_BASE_URL environment variable ' +
        '(the service root before /v1, such as https://host/api).',
    );
  }
  if (!urlCharacters.test(baseUrl)) {
    throw invalidBaseUrl(cut(baseUrl), 'it must not contain whitespace or control characters.');
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw invalidBaseUrl(baseUrl, 'expected an absolute http(s) URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidBaseUrl(baseUrl, 'expected an http or https URL.');
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigurationError(
      `Invalid baseUrl: it must not carry a query, a fragment or credentials (got ${url.origin}${url.pathname}...).`,
    );
  }
  const root = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  // Users of other SDKs put the version in the base URL by habit; requests would go to /v1/v1/.
  if (/\/v1$/i.test(root)) {
    throw invalidBaseUrl(
      baseUrl,
      `drop the trailing /v1 (use ${JSON.stringify(root.slice(0, -3))}); the client adds /v1 to every path itself.`,
    );
  }
  return root;
}

function invalidBaseUrl(shown: string, reason: string): ConfigurationError {
  return new ConfigurationError(`Invalid baseUrl ${JSON.stringify(shown)}: ${reason}`);
}
