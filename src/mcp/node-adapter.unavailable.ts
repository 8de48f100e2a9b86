/**
 * What `#node-adapter` (package.json `imports`) gives a runtime that is not Node.js: a browser
 * bundle, a Worker. `toNodeListener` serves Node's `http` servers, which such a runtime does not
 * have; an app that bundles agentchat/mcp for it must still build, so its bundler finds this, and
 * the listener, if called, says why it cannot serve.
 */
import { ConfigurationError } from '../index.js';
import type { toNodeHandler as realAdapter } from './node-adapter.js';

/** Refuses: the listener serves Node.js's own servers only. */
export const toNodeHandler: typeof realAdapter = () => {
  throw new ConfigurationError(
    "toNodeListener serves Node.js's http servers; on another runtime, serve createMcpHttpHandler's fetch.",
  );
};
