/**
 * One attempt under ky: the request as ky built it, given the attempt's token and the call's
 * Idempotency-Key, run through the middleware, sent with the caller's fetch or the platform's, and
 * its body read, all before the attempt's deadline. Here the client refuses what a hostile server
 * could do with an answer: a redirect is never followed, and a body is read as a stream, counted,
 * and cut off past the limit.
 */
import { readCappedBody } from '../internal/capped-body.js';
import { isTooDeep } from '../internal/json.js';
import type { Call } from './call.js';
import type { Authorization, Credential } from './credential.js';
import { traceAttempt, tracingChannel } from './diagnostics.js';
import {
  AgentChatError,
  describeCall,
  RedirectError,
  ResponseTooLargeError,
  timeoutError,
} from './errors/index.js';
import { withFetchOptions } from './fetch-options.js';
import { type MiddlewareContext, runMiddleware } from './middleware.js';
import { requestIdOf, scrubCause, scrubHeaders, scrubText } from './redaction.js';
import { invalidBodyError, withBodyRead } from './response.js';

/**
 * Runs one attempt of `call` and returns its response, its body already read (see
 * `withBodyRead`). `customFetch` is the client's `fetch` option, when it has one; `errorOf` reads
 * what an attempt threw as an SDK error, for the `agentchat:attempt` channel; `countRetries` is
 * false where the request goes to another party than the service (a token endpoint).
 */
export function attempt(
  request: Request,
  call: Call,
  customFetch: typeof globalThis.fetch | undefined,
  errorOf: (error: unknown, call: Call) => AgentChatError,
  countRetries: boolean,
): Promise<Response> {
  call.beginAttempt(request);
  // ky re-sends a copy of the request as it was before any attempt, so each attempt stamps its own.
  const { idempotencyKey } = call.options;
  if (idempotencyKey !== undefined) request.headers.set('idempotency-key', idempotencyKey);
  // So the service can tell a retry (the 401 replay included) from a new call; set before the
  // attempt's channel starts, so that its context shows the header. Never sent to a company's
  // identity provider, which did not ask for a header of ours.
  if (countRetries) request.headers.set('x-agentchat-retry-count', String(call.attempts - 1));
  const channel = tracingChannel('attempt');
  const send = () => sendAttempt(request, call, customFetch);
  return channel ? traceAttempt(channel, send, request, call, errorOf, timeoutError) : send();
}

/** Sends an attempt's request, authorised, and reads its answer. */
function sendAttempt(
  request: Request,
  call: Call,
  customFetch: typeof globalThis.fetch | undefined,
): Promise<Response> {
  const { credential } = call.options;
  // The platform's fetch is looked up per attempt (sendPlatform), so a fetch patched after the
  // client was made (msw, a test) is used.
  const fetch: Fetch = customFetch
    ? (current, of) => sendReadable(customFetch, current, of)
    : sendPlatform;
  // A key function may take its time: the attempt also ends the moment the signal fires.
  if ('renew' in credential) {
    return untilAborted(renewThenExchange(call, request, fetch, credential), request.signal);
  }
  authorize(request, call, credential.fixed);
  const exchanged = exchange(call, request, fetch);
  // The platform's fetch honours the request's signal (the caller's abort and ky's timeout); a
  // custom one may not.
  return customFetch ? untilAborted(exchanged, request.signal) : exchanged;
}

/**
 * Asks the key function for this attempt's token, inside the attempt, so that the attempt's
 * timeout bounds a function that never answers; then sends the request. The first attempt of a
 * replay tells the function which token the service refused.
 */
async function renewThenExchange(
  call: Call,
  request: Request,
  fetch: Fetch,
  credential: Extract<Credential, { renew: unknown }>,
): Promise<Response> {
  const rejected = call.rejectedToken;
  call.rejectedToken = undefined;
  const authorization = await credential.renew(rejected === undefined ? {} : { rejected });
  // The attempt ended (its timeout, the caller's abort) while the function was answering: a later
  // attempt may already hold the call, and this one sends nothing.
  request.signal.throwIfAborted();
  authorize(request, call, authorization);
  return exchange(call, request, fetch);
}

/** Puts an Authorization on an attempt's request, and on the call, for what it must redact. */
function authorize(request: Request, call: Call, authorization: Authorization): void {
  call.authorization = authorization;
  if (authorization.header !== undefined) {
    request.headers.set('authorization', authorization.header);
  }
}

/**
 * Sends the request through the middleware, refuses a redirect, and reads the answer's body. One
 * function, because each async function an attempt goes through costs it a promise and a
 * suspended frame; the body read is the one async step apart, shared with agentchat/mcp
 * (`readCappedBody`), and a middleware's chain the one place that takes closures.
 */
async function exchange(call: Call, request: Request, fetch: Fetch): Promise<Response> {
  const { middleware } = call.options;
  let response: Response;
  try {
    response =
      middleware.length === 0
        ? await fetch(request, call)
        : await runMiddleware(middleware, request, middlewareContext(call, request), (current) =>
            send(call, fetch, current),
          );
  } catch (error) {
    // Without middleware, whatever failed was the fetch; with it, the network's failure is the
    // one `send` recorded, passed on.
    if (middleware.length === 0 || error === call.attemptError) {
      throw new AttemptFailure(call, error, request);
    }
    throw middlewareFailure(call, error);
  }
  // A middleware that read the body itself leaves nothing to read: its mistake, not the
  // network's, so it must not pass for a dropped connection and be retried.
  if (middleware.length > 0 && response.bodyUsed) {
    throw middlewareFailure(
      call,
      new TypeError('a middleware read the response body; read a clone instead'),
    );
  }
  refuseRedirect(call, response);
  // A 429 or 503 that names a wait holds the client's other calls from now, not from when this
  // one's retry decision reads it.
  call.options.clientWait.note(response);
  // A success the caller asked for raw (`asResponse()`) is theirs to read, body and all.
  if (response.ok && call.options.handOver.raw) {
    call.unread = true;
    call.response = response;
    return response;
  }

  // The body read as a stream, counted, and cut off past the limit (see readCappedBody), so that
  // memory stays bounded by the limit, not by what the server sends.
  const limit = Math.min(call.options.maxResponseBytes, call.endpoint.maxResponseBytes ?? Infinity);
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readCappedBody(response, limit);
  } catch (error) {
    // The connection dropped while the body was read: the network's doing, retried.
    throw new AttemptFailure(call, error, request);
  }
  if (bytes === undefined) throw tooLarge(call, response, limit);
  const text = utf8.decode(bytes);
  withBodyRead(response, text);
  // ky parses a 2xx body with `JSON.parse`; one nested too deep for whatever walks it next is
  // refused first, as a body that is not JSON.
  if (response.ok && isTooDeep(text)) {
    call.stopped = true;
    throw invalidBodyError(call.site, response, call.secrets, call.endpoint.output, undefined);
  }
  call.response = response;
  return response;
}

/**
 * How an attempt's request reaches the network: the platform's `fetch`, or the caller's through
 * {@link sendReadable}. Each merges the `fetchOptions` of the client and of the call.
 */
type Fetch = (request: Request, call: Call) => Promise<Response>;

/**
 * Sends with the platform's `fetch`, looked up now (so a fetch patched after the client was made,
 * by msw or a test, is used), and called with the request itself: its own realm reads it.
 */
function sendPlatform(request: Request, call: Call): Promise<Response> {
  return globalThis.fetch(request, withCallFetchOptions({}, call));
}

/**
 * Sends with the caller's `fetch` as a URL and an init of plain values: a `fetch` of another
 * realm (undici's own, node-fetch) cannot read a `Request` the platform made ("Failed to parse
 * URL from [object Request]"). The body is read whole first; the SDK's bodies are small.
 */
async function sendReadable(
  fetch: typeof globalThis.fetch,
  request: Request,
  call: Call,
): Promise<Response> {
  const body = request.body === null ? undefined : await request.arrayBuffer();
  const init: RequestInit = {
    method: request.method,
    headers: Object.fromEntries(request.headers),
    signal: request.signal,
    redirect: request.redirect,
  };
  if (body !== undefined) init.body = body;
  return fetch(request.url, withCallFetchOptions(init, call));
}

/** `init` over the client's `fetchOptions` and the call's. */
function withCallFetchOptions(init: RequestInit, call: Call): RequestInit {
  const { fetchOptions, callFetchOptions } = call.options;
  return withFetchOptions(init, fetchOptions, callFetchOptions);
}

/** Decodes a body read whole; never in streaming mode, so shared. */
const utf8 = new TextDecoder();

/**
 * An attempt that failed on the network's side: `fetch` threw, or the connection dropped while the
 * body was read. It carries the call to ky's retry decision, which then reads the failure as an
 * `APIConnectionError`; it never reaches the caller.
 */
export class AttemptFailure extends Error {
  declare readonly call: Call;
  declare readonly cause: unknown;
  /** Whether the attempt went over TLS (`https:`), which some failures' reading depends on. */
  declare readonly secure: boolean;

  // Declared fields set here: parameter properties would be emitted twice (see Call).
  constructor(call: Call, cause: unknown, request: Request) {
    super('the attempt failed');
    this.call = call;
    this.cause = cause;
    this.secure = request.url.startsWith('https:');
  }
}

/**
 * Calls `fetch` as a plain function (a native fetch called as a method of another object throws
 * "Illegal invocation" in browsers). What it throws is the network's doing, recorded as such: a
 * middleware sees it as it is, the retry decision as an {@link AttemptFailure}.
 */
async function send(call: Call, fetch: Fetch, request: Request): Promise<Response> {
  try {
    return await fetch(request, call);
  } catch (error) {
    call.attemptError = error;
    throw error;
  }
}

/**
 * Ends the call on a redirect, which is sent with `redirect: 'manual'` and so never followed: in
 * a server runtime it arrives as the 3xx itself, in a browser as an `opaqueredirect` response
 * whose status (0) and headers the page may not read. Either way nothing goes to the Location.
 */
function refuseRedirect(call: Call, response: Response): void {
  const { status } = response;
  if (response.type !== 'opaqueredirect' && (status < 300 || status > 399)) return;
  call.stopped = true;
  response.body?.cancel().catch(() => {});
  throw new RedirectError(call.site, {
    status,
    headers: scrubHeaders(response.headers, call.secrets),
    body: undefined,
  });
}

function tooLarge(call: Call, response: Response, limit: number): ResponseTooLargeError {
  call.stopped = true;
  return new ResponseTooLargeError(
    call.site,
    { status: response.status, requestId: requestIdOf(response.headers, call.secrets) },
    limit,
  );
}

/** The error a middleware's own failure ends the call with, unretried. */
function middlewareFailure(call: Call, error: unknown): AgentChatError {
  call.stopped = true;
  if (error instanceof AgentChatError) return error;
  // A middleware holds the request, Authorization included: what its error says is scrubbed.
  const detail = error instanceof Error ? `: ${scrubText(error.message, call.secrets)}` : '';
  return new AgentChatError(`${describeCall(call.site)}: a middleware failed${detail}`, {
    cause: scrubCause(error, call.secrets),
  });
}

/** What a middleware is told about the attempt it runs around. */
function middlewareContext(call: Call, request: Request): MiddlewareContext {
  return {
    operation: call.endpoint.name,
    attempt: call.attempts - 1,
    maxRetries: call.options.maxRetries,
    idempotencyKey: call.options.idempotencyKey,
    signal: request.signal,
    heldMs: call.heldMs,
    retryBudget: call.options.retryBudget,
    caller: call.options.caller,
  };
}

/** `work`, or a rejection with the signal's reason as soon as it aborts, whichever comes first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => {}); // the abort may settle first
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
  ]);
}
