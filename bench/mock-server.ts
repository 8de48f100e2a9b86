/**
 * Child-process entry: the service under measurement, the mock HTTP server of `agentchat/testing`
 * (from the built dist), in a process of its own so its cost lands on its own core and its garbage
 * in its own heap. Driven by {@link startMockProcess} over IPC.
 */
import { startMockServer } from '../dist/testing/index.js';
import type { MockMessage, ParentMessage } from './mock-process.js';

// No latency and no key list: every request costs the server as little as the mock allows.
const server = await startMockServer();

function reply(message: MockMessage): void {
  process.send?.(message);
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'reset') {
    // Drops the request log, the idempotency records and the projects, which would otherwise
    // grow through the run and make the server's garbage collection costlier as it goes.
    server.service.reset();
    reply({ type: 'reset-done' });
  }
});

// The parent going away, on purpose or not, ends this process too.
process.on('disconnect', () => {
  void server.close().finally(() => process.exit(0));
});

reply({ type: 'ready', baseUrl: server.baseUrl });
