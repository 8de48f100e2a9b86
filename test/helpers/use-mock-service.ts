import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { Client, type ClientOptions } from '../../src/index.js';
import {
  createMockService,
  type MockServer,
  type MockServiceOptions,
  startMockServer,
  strictListen,
} from '../../src/testing/index.js';

export const API_KEY = 'sk_test_4f9a2c7e1b';

/**
 * One mock service per test file, served through msw/node, reset after every test.
 * Requests that miss the mock fail the test instead of reaching the network.
 */
export function useMockService(options: MockServiceOptions = {}) {
  const mock = createMockService({ baseUrl: 'https://agentchat.test/api', ...options });
  const server = setupServer(...mock.handlers);
  beforeAll(() => strictListen(server));
  afterEach(() => mock.reset());
  afterAll(() => server.close());

  const client = (options: ClientOptions = {}) =>
    new Client({ apiKey: API_KEY, baseUrl: mock.baseUrl, ...options });
  return { mock, client };
}

/**
 * One mock service per test file served on 127.0.0.1 (for code that sends with a fetch of its
 * own, such as an agent framework's), reset before every test, and a client of it that does not
 * retry. Both are set once the file's `beforeAll` has run: read them from the returned object.
 */
export function useMockServer(apiKey: string) {
  /**
   * Another client of the server, `options` over the same defaults, whose fetch records each
   * request's abort signal in `signals`: to see a framework's abort reach the request in flight.
   */
  function watchedClient(options: ClientOptions = {}) {
    const signals: AbortSignal[] = [];
    const client = new Client({
      apiKey,
      baseUrl: used.server.baseUrl,
      maxRetries: 0,
      ...options,
      fetch: (input, init) => {
        const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
        if (signal) signals.push(signal);
        return fetch(input, init);
      },
    });
    return { client, signals };
  }
  const used = { watchedClient } as {
    server: MockServer;
    client: Client;
    watchedClient: typeof watchedClient;
  };
  beforeAll(async () => {
    used.server = await startMockServer({ apiKeys: [apiKey] });
    used.client = new Client({ apiKey, baseUrl: used.server.baseUrl, maxRetries: 0 });
  });
  afterAll(() => used.server?.close());
  beforeEach(() => used.server.service.reset());
  return used;
}
