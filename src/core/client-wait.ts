/**
 * One `Retry-After` per client: a 429 or 503 that names a wait holds every call of the client
 * family (a client, the clients `withOptions` makes from it, the MCP server's per-request clients)
 * until it ends, instead of each call finding the limit on its own and spending an attempt on it.
 * A held call waits under its own signal and `totalTimeout`, as it waits before a retry; its
 * `timeout` bounds each attempt once it is sent, not the wait.
 */
import type { Call } from './call.js';
import { type AgentChatError, addNote, describeCall, RateLimitError } from './errors/index.js';
import type { Log } from './logger.js';
import { retryDefaults, serverRetryAfter, sleep } from './retry-policy.js';
import { outOfTime } from './to-agentchat-error.js';

/** The wait the service asked a client family for, and when it ends. */
export class ClientWait {
  /** When the wait ends (`Date.now()` time); 0 when none is in force. */
  #until = 0;
  /** The status that asked for it (429 or 503), for the error of a call that cannot wait. */
  status = 0;

  /**
   * Reads the wait a response asks for, when it is a 429 or a 503 that names one. Of that wait and
   * the one in force, the later end stands: a shorter hint never shortens a wait.
   */
  note(response: Response): void {
    const { status } = response;
    if (status !== 429 && status !== 503) return;
    const now = Date.now();
    const wait = serverRetryAfter(response.headers, now);
    if (wait === undefined || now + wait <= this.#until) return;
    this.#until = now + wait;
    this.status = status;
  }

  /** How long the wait in force has left, in ms; 0 when none is. */
  remaining(): number {
    if (this.#until === 0) return 0;
    const left = this.#until - Date.now();
    if (left > 0) return left;
    // Over: later calls skip the clock.
    this.#until = 0;
    return 0;
  }
}

/**
 * Holds a call about to send until the client-wide wait is over, and again if a new one began
 * meanwhile. `undefined` when none is in force, the usual case, so that no promise is made. It
 * rejects at once with `RateLimitError` when the wait is longer than `maxServerWaitMs` (nothing
 * is sent), with `APITimeoutError` when it would end past the call's `totalTimeout`, and with the
 * signal's reason when the caller aborts.
 */
export function holdCall(call: Call, log: Log | undefined): Promise<void> | undefined {
  const { clientWait } = call.options;
  const remaining = clientWait.remaining();
  if (remaining === 0) return undefined;
  if (remaining > retryDefaults.maxServerWaitMs) throw waitTooLong(call, remaining, log);
  return sleep(hold(call, remaining, log), call.options.signal).then(() => holdCall(call, log));
}

/**
 * How long to wait before a retry the policy would make after `backoff` ms: longer when the
 * client-wide wait ends later. When that wait is longer than `maxServerWaitMs`, the retry is not
 * made: `failure`, the call's own error, ends it, saying why.
 */
export function holdRetry(
  call: Call,
  backoff: number,
  failure: AgentChatError,
  log: Log | undefined,
): number {
  const remaining = call.options.clientWait.remaining();
  if (remaining <= backoff) return backoff;
  if (remaining > retryDefaults.maxServerWaitMs) {
    call.stopped = true;
    addNote(failure, `; not retried: ${askedToWait(call, remaining)}`);
    throw failure;
  }
  return backoff + hold(call, remaining - backoff, log);
}

/**
 * Records and logs that a call is held for `ms` more than it would have waited, unless that ends
 * past its deadline, when it ends the call at once.
 */
function hold(call: Call, ms: number, log: Log | undefined): number {
  if (Date.now() + ms >= call.deadline) throw outOfTime(call);
  call.heldMs += ms;
  const { site } = call;
  const rounded = Math.round(ms);
  log?.(
    'info',
    `${describeCall(site)} held ${rounded} ms: a ${call.options.clientWait.status} asked this client to wait (Retry-After)`,
    { method: site.method, path: site.path, heldMs: rounded },
  );
  return ms;
}

/** The error of a call that would have to wait longer than any call waits: nothing was sent. */
function waitTooLong(call: Call, remaining: number, log: Log | undefined): RateLimitError {
  const { site } = call;
  const error = new RateLimitError(
    site,
    { status: call.options.clientWait.status, headers: new Headers(), body: undefined },
    remaining,
  );
  // The message APIError writes says the call failed with a status; this one was never sent.
  error.message = `${describeCall(site)} was not sent: ${askedToWait(call, remaining)}. Send it again after retryAfter ms.`;
  log?.('info', error.message, { method: site.method, path: site.path, retryAfterMs: remaining });
  return error;
}

function askedToWait(call: Call, remaining: number): string {
  return `a ${call.options.clientWait.status} asked this client to wait ${Math.ceil(remaining / 1000)} s (Retry-After), over the ${retryDefaults.maxServerWaitMs / 1000} s a call waits`;
}
