import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { Client, type ClientOptions } from '../../src/index.js';
import {
  createMockService,
  type MockServiceOptions,
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
