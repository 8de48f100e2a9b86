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

let server: MockServer | undefined;

const startHttpMock: BrowserCommand<[options: MockServerOptions]> = async (_context, options) => {
  await server?.close();
  server = await startMockServer(options);
  return { baseUrl: server.baseUrl };
};

const enqueueOnHttpMock: BrowserCommand<[faults: Fault[]]> = (_context, faults) => {
  server?.service.enqueue(...faults);
};

const httpMockRequests: BrowserCommand<[]> = () =>
  server?.service.requests.map(({ method, path, status }) => ({ method, path, status })) ?? [];

const stopHttpMock: BrowserCommand<[]> = async () => {
  await server?.close();
  server = undefined;
};

export const httpMockCommands = {
  startHttpMock,
  enqueueOnHttpMock,
  httpMockRequests,
  stopHttpMock,
};
