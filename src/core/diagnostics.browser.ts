/**
 * What browsers get in place of `diagnostics.ts` (package.json `imports`, `#diagnostics`): no
 * channel, ever, so every call goes on untraced, and neither the channels' code nor
 * `node:diagnostics_channel` is in a web page's bundle. The tracing functions are never called,
 * since `tracingChannel` answers none: one empty function stands for all three.
 */
import type * as Diagnostics from './diagnostics.js';

const none = () => undefined;

export const tracingChannel: typeof Diagnostics.tracingChannel = none;
export const traceCall = none as unknown as typeof Diagnostics.traceCall;
export const traceAttempt = none as unknown as typeof Diagnostics.traceAttempt;
