/**
 * Holding a call for the wait a 429 or 503 asked of its whole client family (`ClientWait`, in
 * `client-wait.ts`): before it is sent, and before each retry. A held call waits under its own
 * signal and `totalTimeout`, as it waits before a retry; its `timeout` bounds each attempt once it
 * is sent, not the wait.
 */
import type { Call } from './call.js';
import { type AgentChatError, addNote, describeCall, RateLimitError } from './errors/index.js';
import type { Log } from './logger.js';
import { retryDefaults, sleep } from './retry-policy.js';
import { outOfTime } from './to-agentchat-error.js';

/**
 * Holds a call about to send until the client-wide wait is over, and again if a new one began
 * meanwhile. `undefined` when none is in force, the usual case, so that no promise is made. It
 * throws at once `RateLimitError` when the wait is longer than `maxServerWaitMs` (nothing is
 * sent) and `APITimeoutError` when it would end past the call's `totalTimeout`; the promise
 * rejects with the signal's reason when the caller aborts.
 */
export function holdCall(call: Call, log: Log | undefined): Promise<void> | undefined {
  const left = call.options.clientWait.until - Date.now();
  if (left <= 0) return undefined;
  if (left > retryDefaults.maxServerWaitMs) {
    const { site } = call;
    // Not a status this call got: it was never sent. RateLimitError is what code waiting on a
    // rate limit catches, and `retryAfter` says when to send it again.
    const error = new RateLimitError(
      site,
      { status: 429, headers: new Headers(), body: undefined },
      left,
    );
    error.message = `${describeCall(site)} was not sent: ${tooLong(left)}; send it after retryAfter ms`;
    log?.('info', error.message);
    throw error;
  }
  logHeld(call, hold(call, left), log);
  return sleep(left, call.options.signal).then(() => holdCall(call, log));
}

/**
 * How long to wait before a retry the policy would make after `backoff` ms: longer when the
 * client-wide wait ends later. When that wait is longer than `maxServerWaitMs`, the retry is not
 * made: `failure`, the call's own error, ends it, saying why. The caller logs the hold (see
 * `logHeld`) once the retry is sure to be made.
 */
export function holdRetry(call: Call, backoff: number, failure: AgentChatError): number {
  const left = call.options.clientWait.until - Date.now();
  if (left <= backoff) return backoff;
  if (left > retryDefaults.maxServerWaitMs) {
    addNote(failure, `; not retried: ${tooLong(left)}`);
    throw failure;
  }
  return backoff + hold(call, left - backoff);
}

/**
 * Records that a call is held `ms` longer than it would have waited, unless that ends past its
 * deadline, when it ends the call at once.
 */
function hold(call: Call, ms: number): number {
  if (Date.now() + ms >= call.deadline) throw outOfTime(call);
  call.heldMs += ms;
  return ms;
}

/** Writes the one `info` line of a call held `ms` by the client-wide wait. */
export function logHeld(call: Call, ms: number, log: Log | undefined): void {
  log?.(
    'info',
    `${describeCall(call.site)} held ${Math.round(ms)} ms: the service asked this client to wait (Retry-After)`,
  );
}

function tooLong(ms: number): string {
  return `the service asked this client to wait ${Math.ceil(ms / 1000)} s (Retry-After), over 60 s`;
}
