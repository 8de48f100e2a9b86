import type * as z from 'zod/mini';
import type { ClientWait } from './client-wait.js';
import type { Authorization, Credential } from './credential.js';
import type { AgentChatError, CallSite } from './errors/index.js';
import type { FetchOptions } from './fetch-options.js';
import type { Caller, Middleware } from './middleware.js';
import type { bodyRequestOptionsSchema } from './options.js';
import type { RetryBudget } from './retry-budget.js';
import type { StandardSchemaV1 } from './standard-schema.js';

/**
 * An HTTP method {@link Client.request} can send. Every one but `GET` carries an
 * `Idempotency-Key`, the same on each attempt, so that all of them are retried safely.
 *
 * @example
 * ```ts
 * const method: HttpMethod = 'PATCH';
 * await client.request({ method, path: '/v1/projects/proj_123', body: { name: 'Renamed' } });
 * ```
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One operation of the service: how to turn validated input into a request, and what comes back.
 * Resources declare one per method, `client.request` one per call; the transport runs them all.
 */
export interface Endpoint<Input, Output> {
  /** Names the operation in error messages, such as `projects.create`. */
  readonly name: string;
  /** The method, or for `client.request` the one its input names. */
  readonly method: HttpMethod | ((input: Input) => HttpMethod);
  readonly input: z.ZodMiniType<Input>;
  readonly path: (input: Input) => string;
  /** The query string, when the request has one. */
  readonly query?: (input: Input) => URLSearchParams | undefined;
  readonly body?: (input: Input) => unknown;
  /**
   * How the body is sent: JSON (the service's operations, with an Idempotency-Key), or
   * form-encoded (an OAuth 2.0 token request, RFC 6749, which knows no Idempotency-Key).
   * @default 'json'
   */
  readonly encoding?: 'json' | 'form';
  /**
   * The largest body this operation's answer may have, in bytes, below the call's own
   * `maxResponseBytes`: a token response is a few hundred bytes, so it gets 64 KiB.
   * @default the call's `maxResponseBytes`
   */
  readonly maxResponseBytes?: number;
  /**
   * The per-call options it takes: those of every call, and `extraBody` for an operation whose
   * JSON body the SDK builds, or `schema` for `client.request`.
   * @default requestOptionsSchema
   */
  readonly options?: z.ZodMiniType<z.output<typeof bodyRequestOptionsSchema>>;
  /** Any Standard Schema: the SDK's own are zod/mini, `client.request` takes the caller's. */
  readonly output: StandardSchemaV1<unknown, Output>;
}

/**
 * One call's state, shared by the retry decision and the attempts ky makes for it:
 * what was asked, and what the latest attempt sent and got.
 */
export class Call {
  /** Attempts started so far. */
  attempts = 0;
  /** When the latest attempt started (`Date.now()`), for its duration in the log. */
  attemptStarted = 0;
  /** The latest attempt's request, as sent (headers included). */
  declare request: Request | undefined;
  /** The latest response, its body already read (see `withBodyRead`) unless handed over unread. */
  declare response: Response | undefined;
  /** The answer's validated body, once the call has succeeded. */
  declare data: unknown;
  /**
   * What the latest attempt's `fetch` threw, so that the attempt can tell it from a middleware's
   * own failure when a middleware passes it on.
   */
  declare attemptError: unknown;
  /** The latest attempt's Authorization. */
  declare authorization: Authorization | undefined;
  /**
   * True once an attempt ended the call on purpose (a middleware threw, a redirect, a body past
   * the limit): the error stands, unretried.
   */
  declare stopped?: boolean;
  /** When the call must be over (`Date.now()` time), from its `totalTimeout`; else infinity. */
  declare readonly deadline: number;
  /** True once the call has been replayed after a 401 (it is, at most once). */
  declare replayed?: boolean;
  /** The token the service refused, until the replay's first attempt has told the key function. */
  declare rejectedToken: string | undefined;
  /** The SDK error the latest attempt's failure was read as, so that it is read once. */
  declare failure: { readonly source: unknown; readonly error: AgentChatError } | undefined;
  /** Tokens the call's retries took from the retry budget: what it gives back if it succeeds. */
  retryTokens = 0;
  /** How long the call has waited, so far, for a wait the service asked of the whole client. */
  heldMs = 0;
  /**
   * True when the call succeeded with its body left unread, handed to the caller as it came
   * (`asResponse()`): there is no data.
   */
  declare unread?: boolean;

  /** What the call is: its operation. */
  declare readonly endpoint: Endpoint<unknown, unknown>;
  /** Its method and path. */
  declare readonly site: CallSite;
  /** Its settings: the client's, with the call's own over them. */
  declare readonly options: {
    readonly signal: AbortSignal | undefined;
    readonly timeout: number;
    /** The whole call's limit, in ms, when it has one. */
    readonly totalTimeout: number | undefined;
    /** The largest body an attempt reads, in bytes. */
    readonly maxResponseBytes: number;
    readonly maxRetries: number;
    /** Where each attempt's Authorization comes from: the transport's that started the call. */
    readonly credential: Credential;
    /** Sent on every attempt of a POST, so the service can tell a retry from a new request. */
    readonly idempotencyKey: string | undefined;
    /** Run around every attempt: the client's, then the call's. */
    readonly middleware: readonly Middleware[];
    /** The retry budget of the client family; `undefined` when `retryBudget: false`. */
    readonly retryBudget: RetryBudget | undefined;
    /** The wait a 429 or 503 asked of the client family, which each attempt honours. */
    readonly clientWait: ClientWait;
    /** The client's `fetchOptions`, merged into every fetch's init; absent without any. */
    readonly fetchOptions: FetchOptions | undefined;
    /** The call's own `fetchOptions`, over the client's. */
    readonly callFetchOptions: FetchOptions | undefined;
    /** Who the call is made for, told to middleware (see {@link MiddlewareContext.caller}). */
    readonly caller?: Caller | undefined;
    /** Whether the caller wants the raw response; asked after the call has started. */
    readonly handOver: HandOver;
  };

  // Set here rather than as parameter properties, which a build emits twice (a field
  // declaration and an assignment): bytes in every browser bundle.
  constructor(endpoint: Endpoint<unknown, unknown>, site: CallSite, options: Call['options']) {
    this.endpoint = endpoint;
    this.site = site;
    this.options = options;
    this.deadline =
      options.totalTimeout === undefined ? Infinity : Date.now() + options.totalTimeout;
  }

  /** Secrets a server might echo back into what an error would show. */
  get secrets(): readonly string[] {
    return this.authorization?.secrets ?? [];
  }

  /** Records the start of an attempt and forgets what the one before it got. */
  beginAttempt(request: Request): void {
    sending.set(request, this);
    this.attempts++;
    this.attemptStarted = Date.now();
    this.request = request;
    this.response = undefined;
    this.attemptError = undefined;
    // A custom fetch may throw the same error object on every attempt; each is a failure of its own.
    this.failure = undefined;
  }
}

/**
 * What the caller asked of a call's answer after starting it: `raw` once `asResponse()` was
 * called. It is read when a 2xx answer arrives, which is always after the caller's own code
 * that started the call has run.
 */
export interface HandOver {
  raw?: boolean;
}

/** The call each attempt's request was sent for; weak, so that it keeps neither alive. */
const sending = new WeakMap<Request, Call>();

/**
 * The call an attempt's request was sent for: ky's timeout of an attempt names only the request,
 * and its retry decision must find the call.
 */
export function callSending(request: Request): Call | undefined {
  return sending.get(request);
}

/** The response a call that succeeded ended with, its body read. */
export function responseOf(call: Call): Response {
  return call.response as Response;
}
