import { describe, expect, it } from 'vitest';
import { registerMockScenarios, SCENARIO_OPTIONS } from '../mock/scenarios.js';
import { useWorkerMock } from './use-worker.js';

const service = useWorkerMock(SCENARIO_OPTIONS);

describe('mock service in the browser (msw service worker)', () => {
  registerMockScenarios({ service: () => service, speaksCorsByHand: false });

  it('answers through the service worker, not an in-page fallback', () => {
    expect(navigator.serviceWorker.controller?.scriptURL).toBe(
      `${location.origin}/mockServiceWorker.js`,
    );
  });
});
