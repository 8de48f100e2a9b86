/**
 * The SDK's diagnostics channels: `agentchat:call` around each call and `agentchat:attempt` around
 * each attempt, `TracingChannel`s of `node:diagnostics_channel`, so that any APM (OpenTelemetry
 * through agentchat/otel, dd-trace, Sentry) observes the client without a dependency of ours.
 *
 * This module only publishes. It is looked up once, the first time a call starts, through
 * `process.getBuiltinModule` (Node 22.3+, Bun, Deno), so no import of it reaches a bundle; and a
 * channel nobody subscribes to costs a call one property read. The build hands browsers
 * `diagnostics.browser.ts` in its place (package.json `imports`, `#diagnostics`), so that neither
 * this code nor the module's name ships in a web page. It imports nothing at run time, the error
 * classes least of all: the CommonJS build loads it as a file of its own, where an import would be
 * a second copy of each class, and an error published from it would fail `instanceof` against the
 * classes an application imports. The errors it publishes come from its callers.
 */
import type { Channel, TracingChannel } from 'node:diagnostics_channel';
import type { Call } from './call.js';
import type { AgentChatError } from './errors/index.js';

/** The channel around each call, a `TracingChannel` of `node:diagnostics_channel`. */
export const CALL_CHANNEL = 'agentchat:call';
/** The channel around each attempt, the replay after a 401 included. */
export const ATTEMPT_CHANNEL = 'agentchat:attempt';

/**
 * What `diagnostics_channel.tracingChannel('agentchat:call')` publishes for each call that passed
 * its input checks. Its `start` event comes in the caller's async context; `asyncEnd` once the call
 * has settled, with `requestId`, `attempts` and `result` or `error` filled in. It never holds the
 * key, a token or a client secret.
 *
 * @example
 * ```ts
 * import diagnosticsChannel from 'node:diagnostics_channel';
 * import type { CallChannelContext } from 'agentchat';
 *
 * diagnosticsChannel.tracingChannel<unknown, CallChannelContext>('agentchat:call').subscribe({
 *   start: (call) => console.log(`${call.operation} ${call.method} ${call.url}`),
 *   end: () => {},
 *   asyncStart: () => {},
 *   asyncEnd: (call) => console.log(`${call.operation}: ${call.attempts} attempt(s), ${call.requestId}`),
 *   error: (call) => console.log(`${call.operation} failed: ${call.error?.name}`),
 * });
 * ```
 */
export interface CallChannelContext {
  /** The operation: `'projects.create'`, `'projects.get'`, `'chat.send'`, or `'request'`. */
  readonly operation: string;
  /** The HTTP method. */
  readonly method: string;
  /** The address called (a `baseUrl` never holds credentials: the client refuses them). */
  readonly url: string;
  /** The call's `Idempotency-Key`, the same on every attempt; `undefined` for a GET. */
  readonly idempotencyKey: string | undefined;
  /**
   * The params the method was called with, once checked (`{ projectId, message }` for
   * `chat.send`): the user's own data, which the GenAI conventions record only when asked to.
   * Left out for a call to an identity provider (`oauth.token`, `oauth.discovery`), whose params
   * are credentials.
   */
  readonly params?: unknown;
  /** The service's request id of the last response, once the call has settled. */
  requestId?: string | undefined;
  /** How many attempts the call made, once it has settled. */
  attempts?: number;
  /**
   * What the call resolved to (`undefined` for a response handed over unread). Left out for a
   * call to an identity provider (`oauth.token`, `oauth.discovery`), whose answer is a token.
   */
  result?: unknown;
  /** The SDK error the call rejected with. */
  error?: AgentChatError;
}

/**
 * What `diagnostics_channel.tracingChannel('agentchat:attempt')` publishes for each attempt. Its
 * `start` event comes in the call's async context, before anything is sent: a header a subscriber
 * adds to `headers` there (a `traceparent`, say) is sent with the attempt, unless the request
 * already has one of that name. `asyncEnd` comes once the answer's body is read, with `status` or
 * `error` filled in.
 *
 * @example
 * ```ts
 * import diagnosticsChannel from 'node:diagnostics_channel';
 * import type { AttemptChannelContext } from 'agentchat';
 *
 * diagnosticsChannel.tracingChannel<unknown, AttemptChannelContext>('agentchat:attempt').subscribe({
 *   start: (attempt) => {
 *     attempt.headers['x-trace-id'] = 'trace-123';
 *   },
 *   end: () => {},
 *   asyncStart: () => {},
 *   asyncEnd: (attempt) => console.log(`attempt ${attempt.attempt}: ${attempt.status ?? attempt.error?.name}`),
 *   error: () => {},
 * });
 * ```
 */
export interface AttemptChannelContext {
  /** The operation the attempt belongs to, as in {@link CallChannelContext.operation}. */
  readonly operation: string;
  /** Which attempt this is, from 0; the replay after a 401 is an attempt too. */
  readonly attempt: number;
  /** The HTTP method. */
  readonly method: string;
  /** The address called, query included. */
  readonly url: string;
  /**
   * The request's headers, names in lower case, `authorization` and other secret-named ones left
   * out. Headers added here in `start` are sent.
   */
  readonly headers: Record<string, string>;
  /** The response's status, once the attempt got one (a retried 503 included). */
  status?: number;
  /** The SDK error the attempt failed with, when it got no response it could read. */
  error?: AgentChatError;
}

type Tracing<Context extends object> = TracingChannel<unknown, Context>;
type DiagnosticsChannel = typeof import('node:diagnostics_channel');

/** `undefined` until the first call looks; `null` where the runtime has no diagnostics channels. */
let channels:
  | { readonly call: Tracing<CallChannelContext>; readonly attempt: Tracing<AttemptChannelContext> }
  | null
  | undefined;

function lookUp(): typeof channels {
  const module = globalThis.process?.getBuiltinModule?.('node:diagnostics_channel') as
    | DiagnosticsChannel
    | undefined;
  if (typeof module?.tracingChannel !== 'function') return null;
  return {
    call: module.tracingChannel(CALL_CHANNEL),
    attempt: module.tracingChannel(ATTEMPT_CHANNEL),
  };
}

/**
 * The channel `kind`, when someone subscribes to it; `undefined` otherwise, and always where the
 * runtime has none (the call then goes on untraced).
 */
export function tracingChannel<Kind extends 'call' | 'attempt'>(
  kind: Kind,
): NonNullable<typeof channels>[Kind] | undefined {
  if (channels === undefined) channels = lookUp();
  const channel = channels?.[kind];
  return channel?.hasSubscribers ? channel : undefined;
}

/**
 * Traces one call on `channel`: `run` resolves to the call once it succeeded; its context comes
 * from the call ky's options carry, the `params` it was made with and the client's `baseUrl`, and
 * `requestIdOf` reads the answer's request id as errors do.
 */
export function traceCall(
  channel: Tracing<CallChannelContext>,
  run: () => Promise<Call>,
  options: { readonly call: Call; readonly searchParams?: unknown },
  params: unknown,
  baseUrl: string,
  requestIdOf: (headers: Headers) => string | undefined,
): Promise<Call> {
  const { call, searchParams } = options;
  const operation = call.endpoint.name;
  const withData = !carriesCredentials(operation);
  const context: CallChannelContext = {
    operation,
    method: call.site.method,
    url: baseUrl + call.site.path + (searchParams ? `?${searchParams}` : ''),
    idempotencyKey: call.options.idempotencyKey,
    ...(withData && { params }),
  };
  return traced(channel, context, run, (outcome) => {
    context.attempts = call.attempts;
    if ('error' in outcome) {
      const error = outcome.error as AgentChatError;
      context.error = error;
      context.requestId = (error as { requestId?: string }).requestId;
    } else {
      if (withData) context.result = call.data;
      context.requestId = call.response && requestIdOf(call.response.headers);
    }
  });
}

/**
 * Whether an operation's params and result are credentials: the calls to an identity provider
 * (`oauth.token`, whose form holds the client secret, an assertion or a subject token, and whose
 * answer is an access token; `oauth.discovery`, published alike so that no `oauth.*` context ever
 * holds either). A subscriber is anyone's code (an APM agent, a debug logger): it gets neither.
 */
function carriesCredentials(operation: string): boolean {
  return operation.startsWith('oauth.');
}

/**
 * Traces one attempt on `channel`. Headers a subscriber adds in `start` go on the request before
 * `run` sends it; `errorOf` reads what the attempt threw as the SDK error it stands for, and
 * `timedOut` makes the error of an attempt cut off by a timeout.
 */
export function traceAttempt(
  channel: Tracing<AttemptChannelContext>,
  run: () => Promise<Response>,
  request: Request,
  call: Call,
  errorOf: (error: unknown, call: Call) => AgentChatError,
  timedOut: (call: Call) => AgentChatError,
): Promise<Response> {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) {
    if (!SECRET_NAME.test(name)) headers[name] = value;
  }
  const context: AttemptChannelContext = {
    operation: call.endpoint.name,
    attempt: call.attempts - 1,
    method: request.method,
    url: request.url,
    headers,
  };
  const send = () => {
    for (const name in headers) {
      if (!request.headers.has(name)) request.headers.set(name, headers[name] as string);
    }
    return run();
  };
  return traced(channel, context, send, (outcome) => {
    if (!('error' in outcome)) context.status = outcome.value.status;
    else if (request.signal.aborted && !call.options.signal?.aborted) {
      // Cut off by a timeout (ky aborts the attempt, then rejects the call with its own
      // TimeoutError, which this attempt never sees): the attempt's, or the call's once its
      // deadline has passed, as the call's own error will say. Read here, not by `errorOf`:
      // only the call's own error stops the call.
      context.error = timedOut(call);
    } else context.error = errorOf(outcome.error, call);
  });
}

/** Header names whose values are secrets, as the logger redacts them. */
const SECRET_NAME = /authorization|api[-_]?key|token|secret|password|cookie/i;

type Outcome<T> = { readonly value: T } | { readonly error: unknown };

/**
 * `tracePromise` of `node:diagnostics_channel`, event for event (`start` with its bound stores,
 * `end`, then `error`, `asyncStart`, `asyncEnd`), but the context is filled in by `settle` from
 * what `run` ended with: a subscriber sees the SDK's own values, never its internals.
 */
function traced<Context extends object, T>(
  channel: Tracing<Context>,
  context: Context,
  run: () => Promise<T>,
  settle: (outcome: Outcome<T>) => void,
): Promise<T> {
  const { start, end, asyncStart, asyncEnd, error } = channel as unknown as Record<
    'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error',
    Channel<unknown, Context>
  >;
  const finish = (outcome: Outcome<T>) => {
    settle(outcome);
    if ('error' in outcome) error.publish(context);
    asyncStart.publish(context);
    asyncEnd.publish(context);
  };
  return start.runStores(context, () => {
    try {
      return run().then(
        (value) => {
          finish({ value });
          return value;
        },
        (failure: unknown) => {
          finish({ error: failure });
          throw failure;
        },
      );
    } finally {
      end.publish(context);
    }
  });
}
