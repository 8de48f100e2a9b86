/**
 * The retry policy, whole: which failures are retried and how long to wait before each retry.
 * Its numbers live in `retryDefaults`. ky runs the retries (the limit, the abortable waits, the
 * re-sent request); this module tells it, through `retry.shouldRetry` and `retry.delay`, what the
 * contract decides: POSTs retry under one Idempotency-Key, `retry-after-ms` beats `Retry-After`,
 * a server wait above 60 s fails at once, and `x-should-retry` overrides the status.
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
  /** A server that asks for a longer wait than this is not waited for: the error is thrown. */
  maxServerWaitMs: 60_000,
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
  deadline: number = Number.POSITIVE_INFINITY,
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
 * ky's `retry` options for one call. `nextWait(error, retry)` judges each failure (with
 * `retryDelay`, from the SDK error it stands for) and gives the wait before retry `retry`
 * (0-based), or `undefined` to stop; ky then calls `delay` for that wait. Both are made per call,
 * since the wait is the call's own. The jitter is already in the wait, and `backoffLimit` stays
 * off: the cap sits inside `retryDelay`, before the jitter, so the jitter survives at the cap.
 */
export function retryOptions(
  maxRetries: number,
  nextWait: (error: unknown, retry: number) => number | undefined,
): RetryOptions {
  let wait = 0;
  return {
    limit: maxRetries,
    // Every method a call can send; all but GET are safe to retry under their Idempotency-Key.
    methods: ['get', 'post', 'put', 'patch', 'delete'],
    retryOnTimeout: true,
    backoffLimit: Number.POSITIVE_INFINITY,
    shouldRetry: ({ error, retryCount }) => {
      const next = nextWait(error, retryCount - 1);
      if (next === undefined) return false;
      wait = next;
      return true;
    },
    delay: () => wait,
  };
}
