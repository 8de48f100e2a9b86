import { describe, expect, it } from 'vitest';
import { registerMockScenarios, TEST_API_KEY } from '../mock/scenarios.js';
import { useWorkerMock } from './use-worker.js';

const service = useWorkerMock([TEST_API_KEY]);

describe('mock service in the browser (msw service worker)', () => {
  registerMockScenarios({ service: () => service });

  it('answers through the service worker, not an in-page fallback', () => {
    expect(navigator.serviceWorker.controller?.scriptURL).toBe(
      `${location.origin}/mockServiceWorker.js`,
    );
  });
});
