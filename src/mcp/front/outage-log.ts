/**
 * What the front tells its operator of something it depends on (its store, its identity
 * provider) going and coming back: one line when it goes, one when it is back, whatever the
 * traffic in between. The detail (an address, the connection's error) is for the log only:
 * anonymous callers are told what failed in general words (engine.ts, index.ts).
 */
import type { Logger } from '../../index.js';

/** Whether something the front depends on is out, and the log lines that say so once. */
export interface OutageLog {
  /** Why it is out, as the log said when it went (address and error); `undefined` while it is up. */
  readonly detail: string | undefined;
  /** It failed for `reason`: logged when it was up, nothing more while it stays out. */
  down(reason: string): void;
  /** It answered: logged when it was out. */
  up(): void;
  /** Calls `listener` each time it goes (`true`) or comes back (`false`). */
  onChange(listener: (out: boolean) => void): void;
}

/**
 * The outage log of `what` (such as `the store at redis://cache.internal:6379`), its lines told to
 * `logger` at `warn`; `consequence` ends the line when it goes.
 *
 * @example
 * ```ts
 * const store = outageLog(logger, 'the store at redis://cache.internal:6379');
 * store.down('connect ECONNREFUSED 10.0.0.7:6379'); // one line
 * store.down('connect ECONNREFUSED 10.0.0.7:6379'); // none
 * store.up(); // one line
 * ```
 */
export function outageLog(
  logger: Logger | undefined,
  what: string,
  consequence = 'requests that need it answer 503 until it is back',
): OutageLog {
  let detail: string | undefined;
  const listeners: ((out: boolean) => void)[] = [];
  return {
    get detail() {
      return detail;
    },
    down(reason) {
      if (detail !== undefined) return;
      detail = `${what} cannot be reached (${reason})`;
      logger?.warn(`agentchat-mcp: sign-in front: ${detail}; ${consequence}.`);
      for (const listener of listeners) listener(true);
    },
    up() {
      if (detail === undefined) return;
      detail = undefined;
      logger?.warn(`agentchat-mcp: sign-in front: ${what} is reachable again.`);
      for (const listener of listeners) listener(false);
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
