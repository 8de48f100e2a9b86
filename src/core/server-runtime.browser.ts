/**
 * What browsers get in place of `server-runtime.ts` (package.json `imports`, `#server-runtime`): a
 * page sends the browser's own User-Agent, never ours, and sees no TLS cause of a failed fetch,
 * so neither the User-Agent's building nor the certificate problems' wording is in its bundle.
 * `appInfo` is still checked where it is given (options.ts), with the same errors as anywhere.
 */
import type * as ServerRuntime from './server-runtime.js';

const none = () => undefined;

export const userAgent: typeof ServerRuntime.userAgent = none;
export const tlsProblem: typeof ServerRuntime.tlsProblem = none;
