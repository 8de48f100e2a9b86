// agentchat/otel as the CJS build runs it (index.ts gives the types): the bundler makes this
// `require` run the instrumentation's module, and its own of the OpenTelemetry peers, only here.
import { withPeers } from './peers.js';

export const { AgentChatInstrumentation } = withPeers((): typeof import('./instrumentation.js') =>
  require('./instrumentation.js'),
);
