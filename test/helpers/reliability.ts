/**
 * Shared helpers of the reliability proofs: driving calls under fake timers, and looking for a
 * secret everywhere a user could see it.
 */
import { inspect } from 'node:util';
import { vi } from 'vitest';
import type { Logger } from '../../src/index.js';

/**
 * How many runs a property gets: `fallback`, or `PROPERTY_RUNS` from the environment for a deeper
 * search (`PROPERTY_RUNS=5000 npx vitest run test/reliability`).
 */
export function propertyRuns(fallback: number): number {
  const fromEnv = Number(process.env.PROPERTY_RUNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
}

/** What a call ended with, read without ever throwing. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs fake time forward, one timer at a time, until `promise` settles. Each step yields a real
 * macrotask, so every promise chain the previous timer started (msw's interception, the client's
 * retry loop) runs to its next timer before the clock moves again.
 *
 * @returns the outcome and how many fake milliseconds the call took.
 */
export async function settleWithFakeTimers<T>(
  promise: Promise<T>,
  maxSteps = 1_000,
): Promise<Outcome<T> & { elapsedMs: number }> {
  const started = Date.now();
  let outcome: Outcome<T> | undefined;
  promise.then(
    (value) => {
      outcome = { ok: true, value };
    },
    (error: unknown) => {
      outcome = { ok: false, error };
    },
  );
  for (let step = 0; outcome === undefined; step++) {
    if (step >= maxSteps) throw new Error(`the call did not settle within ${maxSteps} timer steps`);
    await vi.advanceTimersToNextTimerAsync();
  }
  return { ...outcome, elapsedMs: Date.now() - started };
}

/**
 * Every rendering of `value` a user might print or ship to a log service: `String`, the stack,
 * `JSON.stringify`, and `util.inspect` with hidden fields and unlimited depth (which walks the
 * whole `cause` chain), plus the same for each error in that chain.
 */
export function renderings(value: unknown): string[] {
  const seen = new Set<unknown>();
  const out: string[] = [];
  const visit = (item: unknown) => {
    if (seen.has(item)) return;
    seen.add(item);
    out.push(inspect(item, { depth: Number.POSITIVE_INFINITY, showHidden: true }));
    try {
      out.push(String(JSON.stringify(item)));
    } catch {
      // A value that cannot be serialised shows nothing through JSON.stringify.
    }
    if (item instanceof Error) {
      out.push(String(item), item.message, String(item.stack));
      if (item.cause !== undefined) visit(item.cause);
      if (item instanceof AggregateError) for (const inner of item.errors) visit(inner);
    }
  };
  visit(value);
  return out;
}

/** The renderings of `value` that contain `secret`; empty when it is kept out of sight. */
export function leaksOf(value: unknown, secret: string): string[] {
  return renderings(value).filter((text) => text.includes(secret));
}

/** A logger that keeps every line it gets, with its level and its details. */
export function recordingLogger(): Logger & { lines: { level: string; text: string }[] } {
  const lines: { level: string; text: string }[] = [];
  const record =
    (level: string) =>
    (...args: unknown[]) => {
      lines.push({
        level,
        text: args
          .map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: null })))
          .join(' '),
      });
    };
  return {
    lines,
    error: record('error'),
    warn: record('warn'),
    info: record('info'),
    debug: record('debug'),
  };
}
