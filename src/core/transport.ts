/**
 * Sends one call: validates its input, runs attempts until one succeeds or the retry policy says
 * stop, and turns every outcome into parsed data or an `AgentChatError`.
 *
 * Each attempt is one plain `fetch(url, init)`, and the loop between attempts is ours, because the
 * contract's policy fits no library's retry engine: POSTs are retried under one Idempotency-Key,
 * `retry-after-ms` counts, a long server wait fails fast, `x-should-retry` overrides, and an abort
 * ends a backoff at once. No request library sits in between: the one this SDK used (ky) cost
 * more per call than all of the SDK's own work together, building a second `Request`, merging
 * options and headers and tying two abort signals together on every attempt (docs/performance.md
 * has the figures). All it did here, joining a URL and serialising a JSON body, is two lines.
 */
import type * as z from 'zod/mini';
import { sleep } from '../internal/sleep.js';
import type { APIPromise, WithResponse } from './api-promise.js';
import { apiPromise } from './api-promise.js';
import {
  AgentChatError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  type CallSite,
  createAPIError,
  RequestValidationError,
  ResponseValidationError,
  type ValidationIssue,
} from './errors.js';
import type { Log } from './logger.js';
import { headerValue, type RequestOptions, requestOptionsSchema } from './options.js';
import { type AttemptOutcome, retryDelay, serverRetryAfter } from './retry.js';
import { validate } from './validation.js';

/** One operation of the service: how to turn validated input into a request, and what comes back. */
export interface Endpoint<Input, Output> {
  /** Names the operation in error messages, such as `projects.create`. */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly input: z.ZodMiniType<Input>;
  readonly path: (input: Input) => string;
  readonly body?: (input: Input) => Record<string, unknown>;
  readonly output: z.ZodMiniType<Output>;
}

/** Everything the transport needs from the client's resolved options. */
export interface TransportConfig {
  readonly apiKey: string | (() => string | Promise<string>);
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly userAgent: string | undefined;
  /** Absent when logging is off. */
  readonly log: Log | undefined;
}

/** One attempt's end: a response with its body read, or the error that prevented one. */
type AttemptResult =
  | { kind: 'response'; response: Response; text: string }
  | { kind: 'error'; error: AgentChatError };

/** Sends calls for one client. Holds the key, so it keeps its config in a private field. */
export class Transport {
  readonly #config: TransportConfig;

  constructor(config: TransportConfig) {
    this.#config = config;
  }

  /** Starts a call and returns its promise at once; bad input rejects it, never throws. */
  request<Input, Output>(
    endpoint: Endpoint<Input, Output>,
    params: unknown,
    options?: RequestOptions,
  ): APIPromise<Output> {
    return apiPromise(this.#send(endpoint, params, options));
  }

  async #send<Input, Output>(
    endpoint: Endpoint<Input, Output>,
    params: unknown,
    rawOptions: RequestOptions | undefined,
  ): Promise<WithResponse<Output>> {
    const input = validate(endpoint.input, params);
    if (!input.ok) throw new RequestValidationError(`${endpoint.name} params`, input.issues);
    // Most calls pass no options; parsing an empty object against the strict schema would cost
    // each of them a few allocations on the hot path for nothing.
    const checked = rawOptions == null ? undefined : validate(requestOptionsSchema, rawOptions);
    if (checked && !checked.ok) {
      throw new RequestValidationError(`${endpoint.name} options`, checked.issues);
    }
    const options: z.output<typeof requestOptionsSchema> = checked?.data ?? {};

    const call: CallSite = { method: endpoint.method, path: endpoint.path(input.data) };
    const body = endpoint.body?.(input.data);
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    const timeout = options.timeout ?? this.#config.timeout;
    const signal = options.signal;
    // One key for every attempt of this call, so the service can tell a retry from a new request.
    const idempotencyKey =
      endpoint.method === 'POST' ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    const headers = this.#headersFor(options.headers, body !== undefined);

    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new APIUserAbortError(call, signal.reason);
      const apiKey = await this.#resolveApiKey();
      if (signal?.aborted) throw new APIUserAbortError(call, signal.reason);

      const started = Date.now();
      // The key may change between attempts (a function can rotate it); the Idempotency-Key never.
      const attemptHeaders: Record<string, string> = {
        ...headers,
        authorization: `Bearer ${apiKey}`,
      };
      if (idempotencyKey) attemptHeaders['idempotency-key'] = idempotencyKey;
      const result = await this.#attempt(call, { body, headers: attemptHeaders, timeout, signal });
      const logged = { attempt, maxRetries, started, result, headers, idempotencyKey };
      if (result.kind === 'response' && result.response.ok) {
        this.#logAttempt('debug', call, logged);
        return parseSuccess(call, result.response, result.text, endpoint.output, apiKey);
      }

      const error =
        result.kind === 'response'
          ? toAPIError(call, result.response, result.text, apiKey)
          : result.error;
      if (error instanceof APIUserAbortError) throw error;
      const outcome: AttemptOutcome =
        result.kind === 'response'
          ? { kind: 'response', status: result.response.status, headers: result.response.headers }
          : { kind: 'connection' };
      const wait = attempt < maxRetries ? retryDelay(outcome, attempt) : undefined;
      this.#logAttempt(wait === undefined ? 'info' : 'debug', call, { ...logged, wait });
      if (wait === undefined) throw error;
      try {
        await sleep(wait, signal);
      } catch (reason) {
        throw new APIUserAbortError(call, reason);
      }
    }
  }

  /** One attempt: a response with its body read, or the error that prevented one. */
  async #attempt(
    call: CallSite,
    request: {
      body: Record<string, unknown> | undefined;
      headers: Record<string, string>;
      timeout: number;
      signal: AbortSignal | undefined;
    },
  ): Promise<AttemptResult> {
    const attemptController = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attemptController.abort();
    }, request.timeout);
    const onAbort = () => attemptController.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onAbort, { once: true });

    try {
      const exchange = this.#exchange(call, request, attemptController.signal);
      // The platform's fetch honours its signal. A custom one may not: with one, the attempt also
      // ends the moment the signal fires (a race the common path need not pay for).
      if (this.#config.fetch) exchange.catch(() => {}); // the race below may settle first
      const { response, text } = await (this.#config.fetch
        ? Promise.race([exchange, abortion(attemptController.signal)])
        : exchange);
      return { kind: 'response', response, text };
    } catch (error) {
      if (request.signal?.aborted) {
        return { kind: 'error', error: new APIUserAbortError(call, request.signal.reason) };
      }
      if (timedOut) return { kind: 'error', error: new APITimeoutError(call, request.timeout) };
      // fetch's own TypeError ("fetch failed"), whose cause says what the network did.
      return { kind: 'error', error: new APIConnectionError(call, error) };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Sends one request and reads its whole body. */
  async #exchange(
    call: CallSite,
    request: { body: Record<string, unknown> | undefined; headers: Record<string, string> },
    signal: AbortSignal,
  ): Promise<{ response: Response; text: string }> {
    // Looked up per attempt, so a fetch patched after the client was made (msw, a test) is used,
    // and called as a plain function: a native fetch called as a method of another object
    // throws "Illegal invocation" in browsers.
    const fetch = this.#config.fetch ?? globalThis.fetch;
    const response = await fetch(this.#config.baseUrl + call.path, {
      method: call.method,
      headers: request.headers,
      body: request.body === undefined ? null : JSON.stringify(request.body),
      signal,
    });
    // The attempt's timeout covers the body too: a server may send headers and then stall.
    return { response, text: await response.text() };
  }

  /**
   * The headers of every attempt of a call, names lower-cased so that a caller's `Content-Type`
   * replaces rather than joins ours. Precedence: our defaults (Accept, User-Agent), then the
   * client's `headers`, then the call's, then what the protocol fixes (the JSON Content-Type).
   * Authorization and Idempotency-Key are added per attempt.
   */
  #headersFor(
    callHeaders: Readonly<Record<string, string>> | undefined,
    hasBody: boolean,
  ): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#config.userAgent) headers['user-agent'] = this.#config.userAgent;
    for (const source of [this.#config.headers, callHeaders]) {
      for (const [name, value] of Object.entries(source ?? {})) headers[name.toLowerCase()] = value;
    }
    if (hasBody) headers['content-type'] = 'application/json';
    return headers;
  }

  /**
   * Logs one attempt: method, path, status, attempt, duration and the wait before the next one.
   * Skipped entirely when logging is off, so the hot path pays nothing for it.
   */
  #logAttempt(
    level: 'debug' | 'info',
    call: CallSite,
    attempt: {
      attempt: number;
      maxRetries: number;
      started: number;
      result: AttemptResult;
      headers: Record<string, string>;
      idempotencyKey: string | undefined;
      wait?: number | undefined;
    },
  ): void {
    const log = this.#config.log;
    if (!log) return;
    const { result, wait } = attempt;
    const status = result.kind === 'response' ? result.response.status : result.error.name;
    const durationMs = Date.now() - attempt.started;
    const label = `attempt ${attempt.attempt + 1}/${attempt.maxRetries + 1}`;
    const retryNote = wait === undefined ? '' : `; retrying in ${Math.round(wait)} ms`;
    log(level, `${call.method} ${call.path} → ${status} (${label}, ${durationMs} ms)${retryNote}`, {
      method: call.method,
      path: call.path,
      status,
      attempt: attempt.attempt + 1,
      maxAttempts: attempt.maxRetries + 1,
      durationMs,
      ...(wait === undefined ? {} : { retryInMs: Math.round(wait) }),
      requestId:
        result.kind === 'response'
          ? (result.response.headers.get('x-request-id') ?? undefined)
          : undefined,
      // The key is never put in; the logger also redacts other secrets by their names.
      headers: {
        ...attempt.headers,
        authorization: 'Bearer [redacted]',
        ...(attempt.idempotencyKey ? { 'idempotency-key': attempt.idempotencyKey } : {}),
      },
    });
  }

  async #resolveApiKey(): Promise<string> {
    const { apiKey } = this.#config;
    if (typeof apiKey === 'string') return apiKey;
    let key: unknown;
    try {
      key = await apiKey();
    } catch (error) {
      throw new AgentChatError('The apiKey function failed, so nothing was sent', { cause: error });
    }
    if (typeof key !== 'string' || key === '' || !headerValue.test(key)) {
      throw new AgentChatError(
        'The apiKey function must return a non-empty string without line breaks, control characters or characters above U+00FF; nothing was sent',
      );
    }
    return key;
  }
}

/** Rejects with the signal's reason once it aborts. */
function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

function parseSuccess<Output>(
  call: CallSite,
  response: Response,
  text: string,
  schema: z.ZodMiniType<Output>,
  apiKey: string,
): WithResponse<Output> {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const body = parseBody(text);
  const fail = (issues: ValidationIssue[]) =>
    new ResponseValidationError(
      call,
      { status: response.status, requestId, body: parseBody(scrub(text, apiKey)).value },
      issues,
    );
  if (!body.json) throw fail([{ path: '', message: 'the body is not JSON' }]);
  const result = validate(schema, body.value);
  if (!result.ok) throw fail(result.issues);
  return { data: result.data, response, requestId };
}

function toAPIError(call: CallSite, response: Response, text: string, apiKey: string) {
  const body = parseBody(scrub(text, apiKey));
  return createAPIError(
    call,
    { status: response.status, headers: scrubHeaders(response.headers, apiKey), body: body.value },
    serverRetryAfter(response.headers),
  );
}

function parseBody(text: string): { json: boolean; value: unknown } {
  if (text === '') return { json: false, value: undefined };
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false, value: text };
  }
}

/** Headers that echo the key back (a proxy's debug header) would show it in an inspected error. */
function scrubHeaders(headers: Headers, apiKey: string): Headers {
  const values = [...headers];
  if (!values.some(([, value]) => scrub(value, apiKey) !== value)) return headers;
  const scrubbed = new Headers();
  for (const [name, value] of values) scrubbed.append(name, scrub(value, apiKey));
  return scrubbed;
}

/** A server that echoes the key back must not put it into an error's message or body. */
function scrub(text: string, apiKey: string): string {
  // Keys too short to be real secrets would match by chance and mangle the body.
  return apiKey.length >= 8 && text.includes(apiKey) ? text.replaceAll(apiKey, '[redacted]') : text;
}
