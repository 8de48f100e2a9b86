/**
 * Sends calls through one ky instance per client: ky serialises the JSON body, bounds each
 * attempt by `timeout` and the call by `totalTimeout`, never follows a redirect, and runs the
 * retries the policy (`retry-policy.ts`) asks for. Each attempt (`attempt.ts`) is one `fetch`
 * that puts the bearer token and the Idempotency-Key on the request and reads the body inside the
 * attempt, capped, so the attempt's deadline covers it and a connection dropped mid-body is
 * retried. Everything ky holds is declared once, on the instance: a call hands it only its
 * method, body and state, since ky merges every option it is given anew on every call.
 * What comes back is read by `response.ts`; whatever fails becomes an SDK error in
 * `to-agentchat-error.ts`.
 */
import ky, { isHTTPError, isTimeoutError, type KyInstance, type Options } from 'ky';
import type * as z from 'zod/mini';
import type { APIPromise } from './api-promise.js';
import { apiPromise } from './api-promise.js';
import { AttemptFailure, attempt } from './attempt.js';
import { logAttempt } from './attempt-log.js';
import { Call, callSending, type Endpoint, type HandOver, responseOf } from './call.js';
import type { ClientWait } from './client-wait.js';
import { bearerCredential, type Credential } from './credential.js';
import { traceCall, tracingChannel } from './diagnostics.js';
import {
  type AgentChatError,
  APIUserAbortError,
  ConfigurationError,
  RequestValidationError,
} from './errors/index.js';
import { type FetchOptions, fetchOptionsProblem } from './fetch-options.js';
import { holdCall, holdRetry, logHeld } from './hold-call.js';
import type { Log } from './logger.js';
import type { Caller, Middleware } from './middleware.js';
import {
  type bodyRequestOptionsSchema,
  headerRecord,
  type RequestOptions,
  requestOptionsSchema,
} from './options.js';
import { requestIdOf } from './redaction.js';
import type { RetryBudget } from './retry-budget.js';
import { retryDelay, retryOptions, sleep } from './retry-policy.js';
import { outOfTime, toAgentChatError } from './to-agentchat-error.js';
import { fieldsAt, validate } from './validation.js';

export type { Endpoint } from './call.js';

/** A call's options once checked: those of every call, with `extraBody` where the endpoint takes it. */
type BodyOptions = z.output<typeof bodyRequestOptionsSchema>;

/** Everything the transport needs from the client's resolved options. */
export interface TransportConfig {
  readonly credential: Credential;
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeout: number;
  /** The whole call's limit, in ms; `undefined` for none. */
  readonly totalTimeout: number | undefined;
  /** The largest response body an attempt reads, in bytes. */
  readonly maxResponseBytes: number;
  /**
   * The client's `headers` as {@link headerRecord} gives them: lower-case names, `undefined` for a
   * name the client leaves out (which ky drops, defaults included).
   */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly fetch: typeof globalThis.fetch | undefined;
  /** Merged into every fetch's init (a proxy's dispatcher, a CA); `undefined` for none. */
  readonly fetchOptions: FetchOptions | undefined;
  readonly userAgent: string | undefined;
  /**
   * `false` where the transport calls another party than the service (a token endpoint, an
   * issuer's discovery): `X-AgentChat-Retry-Count` is meant for the service alone. Sent otherwise.
   */
  readonly retryCountHeader?: false | undefined;
  /** Absent when logging is off. */
  readonly log: Log | undefined;
  /** Run around every attempt, in order. */
  readonly middleware: readonly Middleware[];
  /** Shared by the client family; `undefined` when `retryBudget: false`. */
  readonly retryBudget: RetryBudget | undefined;
  /** The wait a 429 or 503 asked of the client family; shared like the budget. */
  readonly clientWait: ClientWait;
  /** Who the calls are made for (agentchat/mcp's verified caller); absent for the client's own. */
  readonly caller?: Caller | undefined;
}

/** Sends calls for one client. Holds the key, so it keeps its config in a private field. */
export class Transport {
  readonly #config: TransportConfig;
  readonly #ky: KyInstance;
  /** True when the client's own headers name a Content-Type, which a JSON body must override. */
  readonly #clientSetsContentType: boolean;

  /** `ky`, when given, is another transport's instance, to share (see {@link forRequest}). */
  constructor(config: TransportConfig, ky?: KyInstance) {
    this.#config = config;
    this.#clientSetsContentType = 'content-type' in config.headers;
    this.#ky = ky ?? createKy(config);
  }

  /**
   * A transport like this one but authorised by a fixed `apiKey` (or this one's credential, without
   * one) and calling for `caller`, sharing this one's ky instance, so that making one costs no ky
   * setup: an MCP server over HTTP makes one per request. The attempt reads each call's credential
   * and caller from the call, so one ky instance serves them all.
   */
  forRequest(apiKey: string | undefined, caller?: Caller): Transport {
    const credential = apiKey === undefined ? this.#config.credential : bearerCredential(apiKey);
    return new Transport({ ...this.#config, credential, caller }, this.#ky);
  }

  /** Starts a call and returns its promise at once; bad input rejects it, never throws. */
  request<Input, Output>(
    endpoint: Endpoint<Input, Output>,
    params: unknown,
    options?: RequestOptions,
  ): APIPromise<Output> {
    const handOver: HandOver = {};
    return apiPromise<Output>(this.#send(endpoint, params, options, handOver), handOver);
  }

  /**
   * Checks a call and runs it, on the `agentchat:call` channel when someone subscribes to it (see
   * diagnostics.ts); bad input rejects before anything is sent or published.
   */
  #send<Input, Output>(
    endpoint: Endpoint<Input, Output>,
    params: unknown,
    options: RequestOptions | undefined,
    handOver: HandOver,
  ): Promise<Call> {
    let kyOptions: CallOptions;
    try {
      kyOptions = this.#prepare(endpoint, params, options, handOver);
    } catch (error) {
      return Promise.reject(error);
    }
    const channel = tracingChannel('call');
    const run = () => this.#run(kyOptions);
    return channel
      ? traceCall(channel, run, kyOptions, params, this.#config.baseUrl, requestIdOf)
      : run();
  }

  /**
   * Runs a call and resolves to it, its data and response in place. One async function for the
   * whole call, since each costs a promise and a suspended frame per call.
   */
  async #run(kyOptions: CallOptions): Promise<Call> {
    const { call } = kyOptions;
    const log = this.#config.log;
    try {
      const held = holdCall(call, log);
      if (held) {
        await held;
        // ky's clock for totalTimeout starts when it is called: what the wait left, not all of it.
        if (kyOptions.totalTimeout !== undefined)
          kyOptions.totalTimeout = call.deadline - Date.now();
      }
      call.data = await this.#dispatch(kyOptions);
    } catch (error) {
      if (!this.#shouldReplay(call, error)) throw this.#fail(call, error);
      // The service refused a token a function handed out: ask it once more, telling it which
      // token was refused, and replay the call. The replay is not one of the call's retries.
      if (log) logAttempt(log, 'debug', call, toAgentChatError(error, call));
      call.replayed = true;
      call.rejectedToken = call.authorization?.token;
      kyOptions.retry = { limit: call.options.maxRetries - (call.attempts - 1) };
      try {
        await holdCall(call, log);
        call.data = await this.#dispatch(kyOptions);
      } catch (replayError) {
        throw this.#fail(call, replayError);
      }
    }
    // The attempt that succeeded left its response on the call, its body read.
    if (log) logAttempt(log, 'debug', call, responseOf(call));
    call.options.retryBudget?.refund(call.retryTokens);
    return call;
  }

  /**
   * Sends a call through ky, and reads and validates its answer. The URL is joined here rather
   * than by ky's `prefix`: every option the instance holds, ky merges anew on every call.
   */
  #dispatch(kyOptions: CallOptions): Promise<unknown> {
    const { call } = kyOptions;
    const sent = this.#ky(this.#config.baseUrl + call.site.path, kyOptions);
    // Read once the answer is in: by then the caller has asked for it raw (`asResponse()`) or not.
    return sent.then(() => (call.unread ? undefined : sent.json(call.endpoint.output)));
  }

  /**
   * Checks a call's params and options and makes its state and ky options; bad input throws a
   * `RequestValidationError` before anything is sent.
   */
  #prepare<Input, Output>(
    endpoint: Endpoint<Input, Output>,
    params: unknown,
    rawOptions: RequestOptions | undefined,
    handOver: HandOver,
  ): CallOptions {
    const input = validate(endpoint.input, params);
    if (!input.ok) throw new RequestValidationError(`${endpoint.name} params`, input.issues);
    // Most calls pass no options; parsing an empty object against the strict schema would cost
    // each of them a few allocations on the hot path for nothing.
    const checked =
      rawOptions == null
        ? undefined
        : validate<BodyOptions>(endpoint.options ?? requestOptionsSchema, rawOptions);
    if (checked && !checked.ok) {
      throw new RequestValidationError(`${endpoint.name} options`, checked.issues);
    }
    const options: BodyOptions = checked?.data ?? {};
    const callFetchOptions = options.fetchOptions as FetchOptions | undefined;
    if (callFetchOptions !== undefined) {
      const problem = fetchOptionsProblem(callFetchOptions);
      if (problem) throw new ConfigurationError(`Invalid ${endpoint.name} options: ${problem}`);
    }

    let body = endpoint.body?.(input.data);
    const { extraBody } = options;
    if (extraBody) {
      // The params stay the one way to set a field the SDK knows; extraBody never replaces one.
      const taken = fieldsAt(endpoint.input, []).filter((field) => Object.hasOwn(extraBody, field));
      if (taken[0]) {
        throw new RequestValidationError(
          `${endpoint.name} options`,
          taken.map((field) => ({ path: `extraBody.${field}`, message: 'belongs in the params' })),
        );
      }
      body = { ...(body as object), ...extraBody };
    }
    const form = endpoint.encoding === 'form';
    const method =
      typeof endpoint.method === 'function' ? endpoint.method(input.data) : endpoint.method;
    const config = this.#config;
    const call = new Call(
      endpoint as Endpoint<unknown, unknown>,
      { method, path: endpoint.path(input.data) },
      {
        // What the client holds for every call (its credential, retry budget, ...), overridden
        // by the call's own options where it has them.
        ...config,
        // `null` (a framework's "no signal") is none.
        signal: options.signal ?? undefined,
        timeout: options.timeout ?? config.timeout,
        totalTimeout: options.totalTimeout ?? config.totalTimeout,
        maxResponseBytes: options.maxResponseBytes ?? config.maxResponseBytes,
        maxRetries: options.maxRetries ?? config.maxRetries,
        idempotencyKey:
          method !== 'GET' && !form ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined,
        // The call's own middleware runs inside the client's.
        middleware: options.middleware
          ? [...config.middleware, ...options.middleware]
          : config.middleware,
        callFetchOptions,
        handOver,
      },
    );
    const { maxRetries, totalTimeout, signal } = call.options;
    const kyOptions: CallOptions = { method, call };
    // The client's timeout and retry limit are the instance's; ky merges every per-call option
    // key anew per call, so only what differs from the client's is passed.
    if (options.timeout !== undefined) kyOptions.timeout = options.timeout;
    if (maxRetries !== config.maxRetries) kyOptions.retry = { limit: maxRetries };
    // ky's own deadline ends an attempt (or a wait) still running when the call's time is up.
    if (totalTimeout !== undefined) kyOptions.totalTimeout = totalTimeout;
    if (body !== undefined) {
      // A form is fields by name or pairs (a name may repeat, as RFC 8707's `resource` does).
      if (form) kyOptions.body = new URLSearchParams(body as string[][] | Record<string, string>);
      else kyOptions.json = body;
    }
    const query = endpoint.query?.(input.data);
    if (query) kyOptions.searchParams = query;
    const headers = this.#callHeaders(options.headers, body !== undefined && !form);
    if (headers) kyOptions.headers = headers;
    if (signal) kyOptions.signal = signal;
    return kyOptions;
  }

  /**
   * True for a 401 to a token from a function, the first time: such a call is replayed once,
   * unless the service said not to retry it (`x-should-retry: false`).
   */
  #shouldReplay(call: Call, error: unknown): boolean {
    return (
      'renew' in this.#config.credential &&
      !call.replayed &&
      !call.options.signal?.aborted &&
      isHTTPError(error) &&
      error.response.status === 401 &&
      error.response.headers.get('x-should-retry') !== 'false'
    );
  }

  /** The SDK error a call ends with, logged once when it came from an attempt. */
  #fail(call: Call, error: unknown): AgentChatError {
    const failure = toAgentChatError(error, call);
    // Aborts and refusals before any attempt (bad input, a failing apiKey function) are the
    // caller's own doing and not logged.
    const log = this.#config.log;
    if (log && call.attempts > 0 && !(failure instanceof APIUserAbortError)) {
      logAttempt(log, 'info', call, failure);
    }
    return failure;
  }

  /**
   * Headers of one call over the client's: the caller's `headers` in one object, names lower-cased
   * so that they replace rather than join ours, a name given `null` as `undefined`, which ky's merge
   * drops, and the JSON Content-Type a body needs, which no caller header overrides. `undefined`
   * when the call adds nothing, the common case, so ky merges nothing.
   */
  #callHeaders(
    callHeaders: RequestOptions['headers'],
    hasBody: boolean,
  ): Record<string, string | undefined> | undefined {
    if (!callHeaders && !(hasBody && this.#clientSetsContentType)) return undefined;
    const headers = headerRecord(callHeaders);
    if (hasBody) headers['content-type'] = 'application/json';
    return headers;
  }
}

/**
 * The ky instance of a transport: the client's headers over our defaults, one `fetch` (the
 * attempt, which also authorises each request), the retry policy. No hooks: ky copies its options
 * for every hook it runs and races each against the call's deadline, which cost more per call than
 * all of the SDK's own work (docs/maintainers/performance.md); the attempt does what they did.
 */
function createKy(config: TransportConfig): KyInstance {
  // Our defaults first, so that the client's own headers replace them.
  const defaults: Record<string, string> = { accept: 'application/json' };
  if (config.userAgent) defaults['user-agent'] = config.userAgent;
  return ky.create({
    timeout: config.timeout,
    // One function for every call: ky hands it the call among the options it does not know.
    fetch: (request, init) =>
      attempt(
        request as Request,
        (init as CallOptions).call,
        config.fetch,
        toAgentChatError,
        config.retryCountHeader !== false,
      ),
    // Never followed (see attempt.ts): a redirect to another origin would take the body, the
    // headers and the Idempotency-Key with it.
    redirect: 'manual',
    retry: retryOptions(config.maxRetries, (error, retry) =>
      judgeFailure(error, retry, config.log),
    ),
    headers: { ...defaults, ...config.headers },
  });
}

/**
 * ky's retry decision, the same function for every call: finds the call a failed attempt belongs
 * to, reads the failure as the SDK error it stands for, and asks the policy; when it says to
 * retry, waits as long as it says, or until the client-wide wait ends if that is later (the
 * caller's abort ends the wait), pays the retry from the budget, and answers `true`. A budget that
 * cannot pay ends the call at once with the failure, flagged.
 */
function judgeFailure(
  error: Error,
  retry: number,
  log: Log | undefined,
): boolean | Promise<boolean> {
  const call = failedCall(error);
  // An attempt that ended the call on purpose (a middleware's error, a redirect, a body past the
  // limit) stands, and so does anything not from an attempt (ky's own end of the call's time).
  if (!call || call.stopped) return false;
  const failure = toAgentChatError(error, call);
  // Read as a failure no retry can mend (a certificate problem, a proxy's refusal), it stands too.
  if (call.stopped) return false;
  const wait = retryDelay(failure, retry, Math.random, call.deadline);
  // Thrown from ky's retry decision, it ends the call as it is.
  if (wait === 'out-of-time') throw outOfTime(call);
  if (wait === undefined) return false;
  const total = holdRetry(call, wait, failure);
  // Paid only for a retry that will be made: past the checks of the wait and the deadline.
  const budget = call.options.retryBudget;
  if (budget) call.retryTokens += budget.pay(failure);
  if (total > wait) logHeld(call, total - wait, log);
  if (log) logAttempt(log, 'debug', call, failure, total);
  // Another call's 429 may have set a client-wide wait during this one.
  return sleep(total, call.options.signal)
    .then(() => holdCall(call, log))
    .then(() => true);
}

/**
 * The call a failure ky hands to the retry decision belongs to: a non-2xx answer carries the call
 * among its options, an attempt's own failure carries it, and ky's timeout of an attempt names
 * the request the attempt sent.
 */
function failedCall(error: Error): Call | undefined {
  if (error instanceof AttemptFailure) return error.call;
  if (isHTTPError(error)) return callOf(error.options);
  if (isTimeoutError(error)) return callSending(error.request);
  return undefined;
}

/**
 * ky's options for one call, the call among them: an option ky does not know, it keeps on the
 * options it hands to `fetch` and puts on an `HTTPError`, so that the instance's `fetch` and
 * retry decision serve every call without a closure or a `context` object made per call.
 */
type CallOptions = Options & { readonly call: Call };

/** The call ky's options were made for. */
function callOf(options: object): Call {
  return (options as CallOptions).call;
}
