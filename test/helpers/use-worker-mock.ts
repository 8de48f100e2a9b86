import { setupWorker } from 'msw/browser';
import { afterAll, beforeAll } from 'vitest';
import {
  createMockService,
  type MockService,
  type MockServiceOptions,
} from '../../src/testing/index.js';

/**
 * A mock service behind msw's service worker for one browser test file. Its base URL is on the
 * page's own origin: the worker only sees requests to its origin (and `/api` is free there).
 */
export function useWorkerMock(options: Omit<MockServiceOptions, 'baseUrl'>): MockService {
  const service = createMockService({ ...options, baseUrl: `${location.origin}/api` });
  const worker = setupWorker(...service.handlers);
  beforeAll(async () => {
    await worker.start({
      serviceWorker: { url: '/mockServiceWorker.js' },
      // The page also fetches its own modules through the worker; those are not the mock's.
      onUnhandledFrame: 'bypass',
      quiet: true,
    });
  });
  afterAll(() => worker.stop());
  return service;
}
