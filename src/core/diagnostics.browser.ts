/**
 * What browsers get in place of `diagnostics.ts` (package.json `imports`, `#diagnostics`): no
 * channels, so every call goes on untraced, and neither the channels' code nor
 * `node:diagnostics_channel` is in a web page's bundle.
 */
import type * as Diagnostics from './diagnostics.js';

export const tracingChannel: typeof Diagnostics.tracingChannel = () => undefined;
export const traceCall: typeof Diagnostics.traceCall = (_channel, _call, _params, _url, run) =>
  run();
export const traceAttempt: typeof Diagnostics.traceAttempt = (_channel, _request, _call, run) =>
  run();
