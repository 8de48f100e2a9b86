/**
 * One time budget per request for all of its calls to the store. A request to the engine may
 * call the store several times in a row (a client, a session, an interaction, a grant); a
 * deadline per call would add up, so each call waits at most for what is left of its request's
 * budget, and a request whose budget is spent fails at once. A stalled store (a paused server, a
 * partition that drops packets without a reset) then costs a request at most the budget, and it
 * answers 503 well within the 5 s the contract allows.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How long all the store calls of one request may take together, in milliseconds: below the
 * contract's 5 s, with room for the rest of the request on a busy machine.
 */
export const STORE_BUDGET_MS = 3_000;

/** The deadline of the request being served, as `performance.now()` reads it. */
const deadlines = new AsyncLocalStorage<number>();

/**
 * Runs `handle` (one request to the engine) with a budget of `budgetMs` for all of its store
 * calls, counted from now.
 *
 * @example
 * ```ts
 * withStoreBudget(() => callback(req, res));
 * ```
 */
export function withStoreBudget<T>(handle: () => T, budgetMs = STORE_BUDGET_MS): T {
  return deadlines.run(performance.now() + budgetMs, handle);
}

/**
 * Milliseconds left for a store call now: what is left of its request's budget (0 or less once
 * spent), or a whole budget for a call outside any request (a health check, a probe).
 *
 * @example
 * ```ts
 * const waitMs = storeTimeLeft();
 * if (waitMs <= 0) throw new StoreUnavailableError();
 * ```
 */
export function storeTimeLeft(): number {
  const deadline = deadlines.getStore();
  return deadline === undefined ? STORE_BUDGET_MS : deadline - performance.now();
}
