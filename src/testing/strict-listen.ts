import { assertSetupServerIntercepts } from './own-fetch-runtime.js';

/**
 * The guard against unmocked requests, under both of its names: msw 2 reads
 * `onUnhandledRequest` and msw 3 `onUnhandledFrame`, and each ignores the other's without a word.
 */
const STRICT = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const;

/**
 * Starts msw's server so that a request no handler serves fails the test (msw rejects the fetch
 * and prints which request it was) instead of reaching the network, on msw 2 and msw 3 alike.
 * Use it in place of `server.listen(...)`: the guard's option is named differently in each major,
 * and a name copied from the other major is silently ignored, letting real requests through.
 *
 * On Bun and Deno it throws before starting msw 3, whose `setupServer` cannot see those runtimes'
 * own `fetch` and would let every request reach the network; msw 2 works there.
 *
 * @param server - what msw's `setupServer(...)` returns, of either major.
 * @throws ConfigurationError on Bun or Deno with msw 3, naming msw 2 and `startMockServer()`,
 * which work there; otherwise what msw's own `listen` throws.
 * @example
 * ```ts
 * import { createMockService, strictListen } from 'agentchat/testing';
 * import { setupServer } from 'msw/node';
 * import { afterAll, beforeAll } from 'vitest';
 *
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * beforeAll(() => strictListen(server));
 * afterAll(() => server.close());
 * ```
 */
export function strictListen(server: {
  listen(options: {
    readonly onUnhandledRequest: 'error';
    readonly onUnhandledFrame: 'error';
  }): void;
}): void {
  assertSetupServerIntercepts();
  server.listen(STRICT);
}
