import { matchPathPattern } from '../http/path-pattern.js';
import { assertFault, type Fault } from './fault.js';

/**
 * The faults waiting for requests, first in first out. Each request takes the first queued fault
 * that applies to its path.
 *
 * @example
 * ```ts
 * const queue = createFaultQueue();
 * queue.add([{ kind: 'status', status: 503, path: '/oauth/token' }, { kind: 'network-error' }]);
 * queue.take('/v1/projects'); // { kind: 'network-error' }
 * queue.take('/oauth/token'); // the 503
 * ```
 */
export function createFaultQueue() {
  let queue: Fault[] = [];

  return {
    /** Queues all of them, or none when one could not be answered. */
    add(faults: readonly Fault[]): void {
      for (const fault of faults) assertFault(fault);
      queue.push(...faults);
    },
    /** Removes and returns the fault for a request to `path` (below the base URL), if any. */
    take(path: string): Fault | undefined {
      const index = queue.findIndex(
        (fault) => fault.path === undefined || matchPathPattern(fault.path, path) !== undefined,
      );
      return index < 0 ? undefined : queue.splice(index, 1)[0];
    },
    /** Returns a fault taken by a request that did not use it (refused first) to the front. */
    putBack(fault: Fault): void {
      queue.unshift(fault);
    },
    clear(): void {
      queue = [];
    },
  };
}
