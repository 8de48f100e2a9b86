/**
 * What `#sign-in-front` (package.json `imports`) gives a runtime that is not Node.js: a browser
 * bundle, a Worker. The front's engine needs node:http, node:crypto and its Node.js peers; an app
 * that bundles agentchat/mcp for such a runtime, front or not, must still build, so its bundler
 * finds this instead, and the front, if asked for, says why it cannot start.
 */
import { ConfigurationError } from '../../index.js';
import type { createFrontEngine as realEngine } from './engine.js';

/** Refuses: the sign-in front runs on Node.js only. */
export const createFrontEngine: typeof realEngine = async () => {
  throw new ConfigurationError(
    'The sign-in front (upstreamIssuer) runs on Node.js: its engine, oidc-provider, needs ' +
      "Node's http and crypto modules. Serve it with agentchat-mcp or createMcpHttpHandler on Node.js.",
  );
};
