/**
 * Driving calls over real sockets on a fake clock (`vi.useFakeTimers({ toFake: ['setTimeout',
 * 'clearTimeout', 'Date'] })`) without ever moving the clock while real I/O is pending: the tests
 * wait for an event (a request arriving, every call waiting on a timer), then move it. Nothing here
 * depends on how fast the machine is.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import type { Logger, Middleware } from '../../src/index.js';
import type { Outcome } from './reliability.js';

/**
 * Puts every test of the file on the fake clock: `setTimeout`, `clearTimeout` and `Date` only, so
 * that `setImmediate` and the sockets stay real and `until` can wait on them.
 */
export function useFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/**
 * Resolves once `condition()` holds, checking after each turn of the real event loop
 * (`setImmediate`, which the fake clock leaves alone). Unlike `vi.waitFor`, it never moves the fake
 * clock; on each turn it runs the fake timers already due (ky sets one of 0 ms before each retry),
 * which no amount of waiting would otherwise run. Throws, naming `what`, after `limitMs` of real
 * time, so that a hang names what never came (before a test's own timeout of 30 s; what the
 * tests wait for takes milliseconds on an idle machine, and seconds on a busy one).
 */
export async function until(
  condition: () => boolean,
  what: string,
  limitMs = 25_000,
): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > limitMs) throw new Error(`gave up waiting for ${what}`);
    if (vi.isFakeTimers()) vi.advanceTimersByTime(0);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * What a client's calls are doing, counted from two things it does synchronously: its middleware
 * runs as an attempt starts, and at `debug` it logs `retrying in N ms` just before the timer of
 * that wait is set. Give the client `middleware: [watch.middleware]`, `logger: watch.logger` and
 * `logLevel: 'debug'`.
 */
export interface CallWatch {
  readonly middleware: Middleware;
  readonly logger: Logger;
  /** Attempts started. */
  readonly attempts: number;
  /** Retries decided on, each logged before its wait. */
  readonly retries: number;
}

export function watchCalls(): CallWatch {
  const counts = { attempts: 0, retries: 0 };
  const ignore = () => {};
  return {
    middleware: (request, next) => {
      counts.attempts++;
      return next(request);
    },
    logger: {
      error: ignore,
      warn: ignore,
      info: ignore,
      debug: (message: string) => {
        if (message.includes('; retrying in ')) counts.retries++;
      },
    },
    get attempts() {
      return counts.attempts;
    },
    get retries() {
      return counts.retries;
    },
  };
}

/**
 * Starts the calls `start` returns (all watched by `watch`, none held before its first attempt)
 * and runs them to their end on the fake clock. The clock moves to its next timer only when every
 * call still running waits on one: each retry decided on and not yet started is a call waiting out
 * its backoff, and a call neither waiting nor settled has an attempt on the wire. Every retry's
 * attempt starts from a timer (ky sets one even for a wait of 0), so until the clock first moves,
 * the attempts started are first attempts.
 */
export async function settleOnFakeClock<T>(
  watch: CallWatch,
  start: () => readonly Promise<T>[],
): Promise<Outcome<T>[]> {
  // The watch may have counted earlier calls: only what happens from here on counts.
  const attemptsBefore = watch.attempts;
  const retriesBefore = watch.retries;
  const calls = start();
  const outcomes: Outcome<T>[] = [];
  let settled = 0;
  const tracked = calls.map((call, index) =>
    call
      .then(
        (value) => {
          outcomes[index] = { ok: true, value };
        },
        (error: unknown) => {
          outcomes[index] = { ok: false, error };
        },
      )
      .finally(() => {
        settled++;
      }),
  );
  await until(
    () => watch.attempts - attemptsBefore >= calls.length,
    'every call to send its first attempt',
  );
  const retriesStarted = () => watch.attempts - attemptsBefore - calls.length;
  const waiting = () => watch.retries - retriesBefore - retriesStarted();
  for (let step = 0; settled < calls.length; step++) {
    await until(
      () => calls.length - settled === waiting(),
      'every running call to wait on a timer',
    );
    if (settled === calls.length) break;
    if (step > 10_000) throw new Error('the calls did not settle within 10,000 timer steps');
    await vi.advanceTimersToNextTimerAsync();
  }
  await Promise.all(tracked);
  return outcomes;
}
