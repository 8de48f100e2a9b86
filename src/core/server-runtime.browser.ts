/**
 * What browsers get in place of `server-runtime.ts` (package.json `imports`, `#server-runtime`): a
 * page sends the browser's own User-Agent, never ours, and its failed fetch has no cause to read,
 * so neither the User-Agent's building nor the causes' reading and wording is in its bundle.
 * `appInfo` is still checked where it is given (options.ts), with the same errors as anywhere.
 */
import type * as ServerRuntime from './server-runtime.js';

// A server bundled with the `browser` condition still names the SDK, if not the application.
// Cloudflare's wrangler bundles workers with it, and `workerd` ahead of it in package.json gives
// them the real module.
export const userAgent: typeof ServerRuntime.userAgent = (sdk) => sdk;
export const deepestCause: typeof ServerRuntime.deepestCause = () => undefined;
// A page's failed fetch is a bare TypeError: nothing to read, and nothing known to be final.
export const readFailure: typeof ServerRuntime.readFailure = () => ({
  detail: undefined,
  final: false,
});
