/**
 * The retry policy, whole: which failures are retried and how long to wait before each retry.
 * Its numbers live in `retryDefaults`. ky runs the retries (the limit, the re-sent request); this
 * module tells it, through `retry.shouldRetry`, what the contract decides, and waits: POSTs retry under one Idempotency-Key, `retry-after-ms` beats `Retry-After`,
 * a server wait above 60 s fails at once, and `x-should-retry` overrides the status. What one
 * client's calls decide together lives beside it: the retry budget (`retry-budget.ts`) and the
 * client-wide wait a `Retry-After` sets (`client-wait.ts`).
 */
import type { RetryOptions } from 'ky';
import { type AgentChatError, APIConnectionError, APIError } from './errors/index.js';

/**
 * The numbers of the retry policy, in one place. Wait before retry `n` (0-based):
 * `min(initialDelayMs * 2^n, maxDelayMs)`, minus up to `jitter` of it at random.
 *
 * @example
 * ```ts
 * // The longest a call with default options can spend waiting between attempts.
 * const worstCaseWait = retryDefaults.initialDelayMs * (1 + 2); // 1 500 ms over 2 retries
 * // How many failed responses a fresh client retries before its budget stops it: 100.
 * const { capacity, retryCost } = retryDefaults.retryBudget;
 * const retriesBeforeTheBudgetStops = capacity / retryCost;
 * ```
 */
export const retryDefaults = {
  /** Retries after the first attempt (so at most 3 attempts). */
  maxRetries: 2,
  /** Backoff before retry 0; doubles each retry. */
  initialDelayMs: 500,
  /** Backoff never grows past this. */
  maxDelayMs: 8_000,
  /** Up to this share of a backoff is taken off at random, so clients do not retry in step. */
  jitter: 0.25,
  /**
   * A server that asks for a longer wait than this is not waited for: the error is thrown. The
   * same holds for the client-wide wait a 429 or 503 sets: a call that would have to wait longer
   * fails at once with `RateLimitError`, nothing sent.
   */
  maxServerWaitMs: 60_000,
  /**
   * The retry budget shared by a client and the clients made from it (the `retryBudget` option
   * tunes it): a retry takes `retryCost` tokens, or `timeoutCost` after a timeout or a connection
   * failure; when fewer are left, the call fails at once instead. It starts full, at `capacity`.
   */
  retryBudget: {
    /** The most tokens the bucket holds, and what it starts with. */
    capacity: 500,
    /** Tokens a retry after a failed response (a 5xx, 408, 409, 429) takes. */
    retryCost: 5,
    /** Tokens a retry after a timeout or a connection failure takes. */
    timeoutCost: 10,
  },
  /**
   * Tokens a call that succeeds on its first attempt gives back to the retry budget (one that
   * succeeds after retries gives back what they took). Never above `capacity`.
   */
  retryBudgetRefund: 1,
} as const;

/** True when the status alone makes a failed response worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * How long to wait before retry number `retry` (0-based) after an attempt failed with `error`, or
 * `undefined` when it must not be retried: a non-retryable status, an `x-should-retry: false`, a
 * server wait above `maxServerWaitMs`, or anything but a connection failure or an API error; and
 * `'out-of-time'` when the wait would end past `deadline` (`Date.now()` time, the call's
 * `totalTimeout`): the call then ends at once, not after a wait that could only end in a timeout.
 * Attempts left are ky's concern.
 */
export function retryDelay(
  error: AgentChatError,
  retry: number,
  random: () => number = Math.random,
  deadline: number = Infinity,
): number | undefined | 'out-of-time' {
  const wait = policyWait(error, retry, random);
  return wait !== undefined && Date.now() + wait >= deadline ? 'out-of-time' : wait;
}

function policyWait(
  error: AgentChatError,
  retry: number,
  random: () => number,
): number | undefined {
  if (error instanceof APIError) {
    const shouldRetry = error.headers.get('x-should-retry');
    if (shouldRetry === 'false') return undefined;
    if (shouldRetry !== 'true' && !isRetryableStatus(error.status)) return undefined;
    const serverWait = serverRetryAfter(error.headers);
    if (serverWait !== undefined) {
      return serverWait <= retryDefaults.maxServerWaitMs ? serverWait : undefined;
    }
  } else if (!(error instanceof APIConnectionError)) {
    return undefined;
  }
  const backoff = Math.min(retryDefaults.initialDelayMs * 2 ** retry, retryDefaults.maxDelayMs);
  return backoff * (1 - retryDefaults.jitter * random());
}

/**
 * The shape of an IMF-fixdate (RFC 9110 section 5.6.7), the only HTTP date a server may send
 * today, such as `Sun, 06 Nov 1994 08:49:37 GMT`; `Date.parse` then refuses unknown names.
 */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/;

/**
 * The wait the server asked for, in ms: `retry-after-ms` (a non-negative number), else
 * `Retry-After` as a non-negative integer of seconds or an IMF-fixdate. `undefined` when it asked
 * for none or said anything else (`-1`, `1.5`, `soon`, a date in another format): read loosely,
 * `-1` passes for a date long gone and retries come back to back.
 */
export function serverRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
  if (!IMF_FIXDATE.test(retryAfter)) return undefined;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * ky's `retry` options, made once per client: `limit` retries at most, every method a call can send
 * (all but GET carry an Idempotency-Key, so all are safe to retry), and each failure judged by
 * `judge(error, retry)` (`retry` 0-based), which answers `false` to stop, or waits as long as the
 * policy says and then answers `true`. The wait happens inside the judgement because ky's `delay`
 * learns only the attempt count, and the wait is the failure's own (a server's `retry-after-ms`,
 * the call's deadline): so `delay` is 0, and nothing of the policy is made per call.
 */
export function retryOptions(
  limit: number,
  judge: (error: Error, retry: number) => boolean | Promise<boolean>,
): RetryOptions {
  return {
    limit,
    methods: ['get', 'post', 'put', 'patch', 'delete'],
    retryOnTimeout: true,
    shouldRetry: ({ error, retryCount }) => judge(error, retryCount - 1),
    delay: () => 0,
    // The server's wait is waited inside the judgement. ky 2.2 reads `Retry-After` (and
    // `RateLimit-Reset` and friends) for these statuses even when `shouldRetry` said yes, and
    // would wait it a second time; 2.1 left it to `shouldRetry`.
    afterStatusCodes: [],
  };
}

/**
 * Resolves after `ms`, or rejects with the signal's reason the moment it aborts, its timer cleared:
 * the wait before a retry, which the caller's abort ends at once. No wait takes no timer.
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    if (ms <= 0) {
      resolve();
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
