import { setupWorker } from 'msw/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { registerMockScenarios, TEST_API_KEY } from '../mock/scenarios.js';

// On the page's own origin, so the service worker sees the requests (it only sees its origin's
// and those the page makes); `/api` is free on the test server.
const service = createMockService({ baseUrl: `${location.origin}/api`, apiKeys: [TEST_API_KEY] });
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

describe('mock service in the browser (msw service worker)', () => {
  registerMockScenarios({ service: () => service });

  it('answers through the service worker, not an in-page fallback', () => {
    expect(navigator.serviceWorker.controller?.scriptURL).toBe(
      `${location.origin}/mockServiceWorker.js`,
    );
  });
});
