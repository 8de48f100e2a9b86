import { ConfigurationError } from '../../core/errors/configuration-error.js';
/**
 * Resolves `true` after `ms`, or `false` as soon as `signal` aborts; the timer is cleared then, so
 * an abandoned request leaves nothing scheduled.
 *
 * @example
 * ```ts
 * if (!(await wait(latencyMs, request.signal))) return Response.error();
 * ```
 */
export function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  // No timer at all for the common case of no latency: answers stay in the same macrotask.
  if (ms <= 0) return Promise.resolve(true);

  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Resolves once `signal` aborts; never otherwise. Holds no timer, only a listener.
 *
 * @example
 * ```ts
 * await untilAborted(request.signal);
 * ```
 */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Throws unless `ms` is a finite, non-negative number of milliseconds.
 *
 * @example
 * ```ts
 * assertMilliseconds(-1, 'latencyMs'); // throws ConfigurationError
 * ```
 */
export function assertMilliseconds(ms: number, name: string): void {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new ConfigurationError(`${name} must be a finite number >= 0, got ${ms}`);
  }
}
