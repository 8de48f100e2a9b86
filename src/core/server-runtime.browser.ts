/**
 * What browsers get in place of `server-runtime.ts` (package.json `imports`, `#server-runtime`): a
 * page sends the browser's own User-Agent, never ours, and its failed fetch has no cause to read,
 * so neither the User-Agent's building nor the causes' reading and wording is in its bundle.
 * `appInfo` is still checked where it is given (options.ts), with the same errors as anywhere.
 */
import type * as ServerRuntime from './server-runtime.js';

const none = () => undefined;

export const userAgent: typeof ServerRuntime.userAgent = none;
export const deepestCause: typeof ServerRuntime.deepestCause = none;
