/**
 * Browser commands (run in Node by vitest, called from the page with `commands`) that start the
 * mock HTTP server on its own port, another origin than the test page's, so browser tests meet
 * real CORS: preflights, and only the exposed headers readable.
 */
import type { BrowserCommand } from 'vitest/node';
import {
  type Fault,
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from '../../src/testing/index.js';

/**
 * One server per browser session: the engines' projects run at once in one Node process, and a
 * server shared between them would be closed under one engine's tests by another's.
 */
const servers = new Map<string, MockServer>();

const startHttpMock: BrowserCommand<[options: MockServerOptions]> = async (context, options) => {
  await servers.get(context.sessionId)?.close();
  const server = await startMockServer(options);
  servers.set(context.sessionId, server);
  return { baseUrl: server.baseUrl };
};

const enqueueOnHttpMock: BrowserCommand<[faults: Fault[]]> = (context, faults) => {
  servers.get(context.sessionId)?.service.enqueue(...faults);
};

const httpMockRequests: BrowserCommand<[]> = (context) =>
  servers
    .get(context.sessionId)
    ?.service.requestLog()
    .map(({ method, path, status }) => ({ method, path, status })) ?? [];

const stopHttpMock: BrowserCommand<[]> = async (context) => {
  await servers.get(context.sessionId)?.close();
  servers.delete(context.sessionId);
};

export const httpMockCommands = {
  startHttpMock,
  enqueueOnHttpMock,
  httpMockRequests,
  stopHttpMock,
};
