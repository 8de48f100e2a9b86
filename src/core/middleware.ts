import type { RetryBudgetState } from './retry-budget.js';

/**
 * Middleware: functions run around every attempt, under ky's retries, so that each retry is seen
 * as its own attempt. They may read or replace the request and the response, to log, trace, add
 * headers or stand in for the service in a test.
 */

/**
 * What a middleware is told about the attempt it runs around.
 *
 * @example
 * ```ts
 * const logAttempts: Middleware = async (request, next, context) => {
 *   console.log(`${context.operation} attempt ${context.attempt + 1} of ${context.maxRetries + 1}`);
 *   if (context.heldMs > 0) console.log(`held ${context.heldMs} ms by the service's Retry-After`);
 *   return next(request);
 * };
 * ```
 */
export interface MiddlewareContext {
  /** The operation, such as `projects.create`. */
  readonly operation: string;
  /** Which attempt this is, from 0. The replay after a 401 is an attempt too. */
  readonly attempt: number;
  /** How many retries the call may make after its first attempt. */
  readonly maxRetries: number;
  /** The call's `Idempotency-Key`, the same on every attempt (POSTs only). */
  readonly idempotencyKey: string | undefined;
  /** Fires when this attempt ends early: its timeout, or the caller's abort. */
  readonly signal: AbortSignal;
  /**
   * How long the call has waited so far, in ms, because a 429 or 503 with `Retry-After` (to this
   * call or another of the client) asked the whole client to wait; 0 when it never did. Such a
   * wait is also logged at `info`.
   */
  readonly heldMs: number;
  /**
   * The client's retry budget, read live: after `next` resolves with a failure, `available` below
   * what a retry costs (`retryDefaults.retryBudget`) means the call ends with this attempt, its
   * error flagged `retryBudgetExhausted`. `undefined` when the client has `retryBudget: false`.
   */
  readonly retryBudget: RetryBudgetState | undefined;
  /**
   * Who the call is made for, when the client serves someone else: agentchat/mcp with
   * authorization sets it to the verified caller of each tool call, so that a middleware can pass
   * it on (as a header the service logs, say). `undefined` for a client's own calls.
   */
  readonly caller?: Caller | undefined;
}

/**
 * A caller verified by agentchat/mcp's authorization: never a token, only who it names.
 *
 * @example
 * ```ts
 * const onBehalfOf: Middleware = (request, next, { caller }) => {
 *   if (caller?.subject) request.headers.set('x-on-behalf-of', caller.subject);
 *   return next(request);
 * };
 * ```
 */
export interface Caller {
  /** The token's subject (`sub`): the user or service it was issued to, when it names one. */
  readonly subject: string | undefined;
  /** The OAuth client the token was issued to (`client_id`). */
  readonly clientId: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
}

/**
 * A function run around every attempt. Call `next` with the request (the one given, or one of
 * your own) and return its response (or one of your own). The request carries the
 * `Authorization` header: a middleware sees the key, so never log headers unredacted. An error a
 * middleware throws ends the call at once, unretried: an {@link AgentChatError} as it is, anything
 * else wrapped in one, with the original as its `cause`.
 *
 * @example
 * ```ts
 * const timing: Middleware = async (request, next, { operation, attempt }) => {
 *   const started = performance.now();
 *   const response = await next(request);
 *   console.log(operation, attempt, response.status, performance.now() - started);
 *   return response;
 * };
 * const client = new Client({ middleware: [timing] });
 * ```
 */
export type Middleware = (
  request: Request,
  next: (request: Request) => Promise<Response>,
  context: MiddlewareContext,
) => Promise<Response>;

/** Runs `request` through `middleware` in order, the first outermost, with `send` innermost. */
export function runMiddleware(
  middleware: readonly Middleware[],
  request: Request,
  context: MiddlewareContext,
  send: (request: Request) => Promise<Response>,
): Promise<Response> {
  const at = (index: number) => (current: Request) => {
    const layer = middleware[index];
    return layer ? layer(current, at(index + 1), context) : send(current);
  };
  return at(0)(request);
}
