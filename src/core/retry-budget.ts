/**
 * The retry budget: one token bucket per client family (a client, the clients `withOptions` makes
 * from it, the MCP server's per-request clients), so that an outage does not multiply the load.
 * Each call's retry ladder is sensible on its own; hundreds of them together, against a service
 * that is down, triple what it receives. The bucket (the AWS SDKs' retry quota, gRPC's retry
 * throttling) lets retries through while most calls succeed, and stops them when most fail.
 */
import { type AgentChatError, APIConnectionError, addNote } from './errors/index.js';
import { retryDefaults } from './retry-policy.js';

/**
 * How the retry budget is sized: the `retryBudget` client option. Every field is optional; one
 * left out keeps its value in `retryDefaults.retryBudget`.
 *
 * @example
 * ```ts
 * // A client that makes thousands of calls a minute can afford a deeper bucket.
 * const client = new Client({ retryBudget: { capacity: 2_000 } });
 * ```
 */
export interface RetryBudgetOptions {
  /**
   * The most tokens the bucket holds, and what it starts with.
   * @default 500
   */
  capacity?: number | undefined;
  /**
   * Tokens one retry takes after a failed response (a 5xx, 408, 409, 429).
   * @default 5
   */
  retryCost?: number | undefined;
  /**
   * Tokens one retry takes after a timeout or a connection failure, which cost the service (or the
   * network) more than an answer does.
   * @default 10
   */
  timeoutCost?: number | undefined;
}

/**
 * What a middleware can read of the client's retry budget (`context.retryBudget`): read at any
 * moment, it gives the tokens left then. A retry is refused when fewer are left than it costs.
 *
 * @example
 * ```ts
 * const budgetGauge: Middleware = async (request, next, { retryBudget }) => {
 *   const response = await next(request);
 *   if (retryBudget) console.log(`retry budget ${retryBudget.available}/${retryBudget.capacity}`);
 *   return response;
 * };
 * ```
 */
export interface RetryBudgetState {
  /** Tokens left now. */
  readonly available: number;
  /** The most the bucket holds. */
  readonly capacity: number;
}

/** One client family's token bucket. A few integer operations per call, no allocation. */
export class RetryBudget implements RetryBudgetState {
  /**
   * Tokens left. A plain field, not a private one behind a getter: a middleware is handed this
   * object, and whatever it does with it (copy, compare, inspect) must read the count.
   */
  declare available: number;
  declare readonly capacity: number;
  declare readonly retryCost: number;
  declare readonly timeoutCost: number;

  // Declared fields set here, in this order: parameter properties would be emitted twice (see Call).
  constructor(capacity: number, retryCost: number, timeoutCost: number) {
    this.capacity = capacity;
    this.retryCost = retryCost;
    this.timeoutCost = timeoutCost;
    this.available = capacity;
  }

  /**
   * Pays for a call's retry after `failure` (more after a timeout or a connection failure) and
   * returns what it took, for the call to keep count of; or, when too few tokens are left, marks
   * `failure` as the end of the call and throws it: flagged, its message saying why and what to
   * do, its class kept (an `InternalServerError` stays one).
   */
  pay(failure: AgentChatError): number {
    const cost = failure instanceof APIConnectionError ? this.timeoutCost : this.retryCost;
    if (this.available < cost) {
      addNote(
        failure,
        "; not retried: the client's retry budget is spent (many calls failed lately); try again later, or tune the retryBudget option",
      );
      Object.defineProperty(failure, 'retryBudgetExhausted', { value: true, enumerable: true });
      throw failure;
    }
    this.available -= cost;
    return cost;
  }

  /**
   * A call succeeded: it gives back `retryTokens`, what its retries took, or `retryBudgetRefund`
   * when it needed none, so that a service that answers refills the bucket. Never above capacity.
   */
  refund(retryTokens: number): void {
    this.available = Math.min(
      this.capacity,
      this.available + (retryTokens || retryDefaults.retryBudgetRefund),
    );
  }
}
