// agentchat/otel as the ESM build runs it (index.ts gives the types): the instrumentation is
// imported only once its OpenTelemetry peers are known to be there, since a static import of a
// missing package fails before any code of this module runs.
import { withPeers } from './peers.js';

export const { AgentChatInstrumentation } = await withPeers(() => import('./instrumentation.js'));
