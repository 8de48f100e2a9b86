import type { setupServer } from 'msw/node';
import mswManifest from 'msw/package.json' with { type: 'json' };

/**
 * The major version of the msw these tests run on: 3 in the `node` project, 2 in `mock on msw 2`
 * (vitest.config.ts points every import of msw at msw 2 there).
 */
export const mswMajor = Number(mswManifest.version.split('.')[0]);

/**
 * Starts intercepting so that a request no handler serves fails the test instead of reaching the
 * network. msw 2 reads `onUnhandledRequest` and msw 3 `onUnhandledFrame`, and each silently
 * ignores the other's name, so the option must match the major.
 */
export function listenStrictly(server: ReturnType<typeof setupServer>): void {
  const guard = mswMajor === 2 ? { onUnhandledRequest: 'error' } : { onUnhandledFrame: 'error' };
  // Typed against msw 3, which has no `onUnhandledRequest`; the value is right for the major.
  server.listen(guard as Parameters<typeof server.listen>[0]);
}
