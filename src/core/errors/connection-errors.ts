import { deepestCause } from '../server-runtime.js';
import { AgentChatError, type CallSite, describeCall } from './agentchat-error.js';

/**
 * The request never got a response: DNS, refused or dropped connection. `cause` has the detail;
 * the message ends with how many attempts were made. Retried; thrown once retries run out.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof APIConnectionError) {
 *     console.error(`Network problem after ${error.attempts} attempts:`, error.cause);
 *   }
 * }
 * ```
 */
export class APIConnectionError extends AgentChatError {
  static override readonly errorName: string = 'APIConnectionError';
  /** How many attempts the call made before giving up. */
  declare readonly attempts: number;

  constructor(call: CallSite, cause: unknown, attempts = 1, reason?: string) {
    super(
      `${describeCall(call)} ${reason ?? `could not reach the service (${describe(cause)})`} after ${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}`,
      { cause },
    );
    this.attempts = attempts;
  }
}

/**
 * An attempt ran past its `timeout` (retried), or the whole call past its `totalTimeout` (not
 * retried: the call ends the moment the next wait would pass it). A subclass of
 * {@link APIConnectionError}.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.send({ projectId: 'proj_123', message: 'Hello' }, { timeout: 5_000 });
 * } catch (error) {
 *   if (error instanceof APITimeoutError) console.error('No answer within 5 s per attempt');
 * }
 * ```
 */
export class APITimeoutError extends APIConnectionError {
  static override readonly errorName: string = 'APITimeoutError';

  /** `scope` says which limit ran out: `timeout` for one attempt, `totalTimeout` for the call. */
  constructor(
    call: CallSite,
    timeoutMs: number,
    attempts = 1,
    scope: 'attempt' | 'call' = 'attempt',
  ) {
    super(
      call,
      undefined,
      attempts,
      `timed out (${timeoutMs} ms ${scope === 'call' ? 'for the whole call, totalTimeout' : 'per attempt'})`,
    );
  }
}

/** Which limit ran out: one attempt's `timeout`, or the whole call's `totalTimeout`. */
export type TimeoutScope = 'attempt' | 'call';

/** What a call's timeout errors are read from: the call as far as its time limits go. */
export interface TimedCall {
  readonly site: CallSite;
  readonly attempts: number;
  /** When the call must be over (`Date.now()` time), from its `totalTimeout`; else infinity. */
  readonly deadline: number;
  readonly options: { readonly timeout: number; readonly totalTimeout: number | undefined };
}

/**
 * Which limit a timeout that cut an attempt off stands for (ky's one TimeoutError stands for
 * both): the call's once its deadline has passed, else the attempt's.
 */
export function timeoutScope(call: TimedCall): TimeoutScope {
  return Date.now() >= call.deadline ? 'call' : 'attempt';
}

/** The APITimeoutError of `call` for the limit `scope`, by default the one that ran out. */
export function timeoutError(call: TimedCall, scope = timeoutScope(call)): APITimeoutError {
  const { timeout, totalTimeout } = call.options;
  const ms = scope === 'call' ? (totalTimeout ?? 0) : timeout;
  return new APITimeoutError(call.site, ms, call.attempts, scope);
}

/**
 * The caller's `AbortSignal` fired; no further attempt was made. `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 1_000);
 * try {
 *   await client.chat.send(
 *     { projectId: 'proj_123', message: 'Hello' },
 *     { signal: controller.signal },
 *   );
 * } catch (error) {
 *   if (error instanceof APIUserAbortError) console.log('Cancelled');
 * }
 * ```
 */
export class APIUserAbortError extends AgentChatError {
  static override readonly errorName: string = 'APIUserAbortError';

  constructor(call: CallSite, reason: unknown) {
    super(`${describeCall(call)} was aborted`, { cause: reason });
  }
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // A browser's fetch gives no deeper cause to read: its builds stub this out (#server-runtime).
  return deepestCause(cause) ?? cause.message;
}
