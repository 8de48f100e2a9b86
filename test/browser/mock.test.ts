import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { registerMockScenarios, SCENARIO_OPTIONS } from '../helpers/mock-scenarios.js';
import type { Exchange } from '../helpers/openapi-contract.js';
import { useWorkerMock } from '../helpers/use-worker-mock.js';

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** openapi-contract.ts's check, run in Node by vitest.config.ts. */
    contractProblems(exchanges: Exchange[]): Promise<string[]>;
  }
}

const service = useWorkerMock(SCENARIO_OPTIONS);

describe('mock service in the browser (msw service worker)', () => {
  registerMockScenarios({
    service: () => service,
    speaksCorsByHand: false,
    contractProblems: (exchanges) => commands.contractProblems(exchanges),
  });

  it('answers through the service worker, not an in-page fallback', () => {
    expect(navigator.serviceWorker.controller?.scriptURL).toBe(
      `${location.origin}/mockServiceWorker.js`,
    );
  });
});
