/**
 * The retry policy, whole: which outcomes are retried and how long to wait before each retry.
 * Its numbers live in `retryDefaults`; the transport asks `retryDelay` after every failed attempt.
 */

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

/** What an attempt ended with, as far as the retry policy cares. */
export type AttemptOutcome =
  | { kind: 'connection' } // network failure or timeout: no response at all
  | { kind: 'response'; status: number; headers: Headers };

/** True when the status alone makes a failed response worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * How long to wait before retry number `retry` (0-based), or `undefined` when the outcome must
 * not be retried: a non-retryable status, an `x-should-retry: false`, or a server wait above
 * `maxServerWaitMs`. Attempts left are the caller's concern.
 */
export function retryDelay(
  outcome: AttemptOutcome,
  retry: number,
  random: () => number = Math.random,
): number | undefined {
  if (outcome.kind === 'response') {
    const shouldRetry = outcome.headers.get('x-should-retry');
    if (shouldRetry === 'false') return undefined;
    if (shouldRetry !== 'true' && !isRetryableStatus(outcome.status)) return undefined;
    const serverWait = serverRetryAfter(outcome.headers);
    if (serverWait !== undefined) {
      return serverWait <= retryDefaults.maxServerWaitMs ? serverWait : undefined;
    }
  }
  const backoff = Math.min(retryDefaults.initialDelayMs * 2 ** retry, retryDefaults.maxDelayMs);
  return backoff * (1 - retryDefaults.jitter * random());
}

/**
 * The wait the server asked for, in ms: `retry-after-ms`, else `Retry-After` as seconds or as an
 * HTTP date. `undefined` when it asked for none or said something unreadable.
 */
export function serverRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
