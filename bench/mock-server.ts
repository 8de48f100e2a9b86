/**
 * Child-process entry: the service under measurement, the mock HTTP server of `agentchat/testing`
 * (from the built dist), in a process of its own so its cost lands on its own core and its garbage
 * in its own heap. Driven by {@link startMockProcess} over IPC.
 */
import { startMockServer } from '../dist/testing/index.js';
import type { MockMessage, ParentMessage } from './mock-process.js';

// Argument: the latency in milliseconds (see MockProcessOptions). No key list: any key is accepted,
// so that checking keys costs the server as little as the mock allows.
const latencyMs = Number(process.argv[2] ?? '0');
if (!Number.isFinite(latencyMs) || latencyMs < 0) {
  throw new Error(
    `mock-server.ts: latency must be a number of milliseconds, got ${process.argv[2]}`,
  );
}
const server = await startMockServer({ latencyMs });

function reply(message: MockMessage): void {
  process.send?.(message);
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'reset') {
    // Drops the request log, the idempotency records and the projects, which would otherwise
    // grow through the run and make the server's garbage collection costlier as it goes. The
    // latency given at start stays.
    server.service.reset();
    reply({ type: 'reset-done' });
  }
});

// The parent going away, on purpose or not, ends this process too.
process.on('disconnect', () => {
  void server.close().finally(() => process.exit(0));
});

reply({ type: 'ready', baseUrl: server.baseUrl });
