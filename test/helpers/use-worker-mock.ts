import { setupWorker } from 'msw/browser';
import { afterAll, beforeAll } from 'vitest';
import {
  createMockService,
  type MockService,
  type MockServiceOptions,
} from '../../src/testing/index.js';

/**
 * A mock service behind msw's service worker for one browser test file. Its base URL is on the
 * page's own origin (where `/api` is free) unless `baseUrl` puts it on another.
 */
export function useWorkerMock(options: MockServiceOptions): MockService {
  const service = createMockService({ baseUrl: `${location.origin}/api`, ...options });
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
