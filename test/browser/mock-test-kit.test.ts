import { describe } from 'vitest';
import { KIT_OPTIONS, registerTestKitScenarios } from '../helpers/test-kit-scenarios.js';
import { useWorkerMock } from '../helpers/use-worker-mock.js';

const service = useWorkerMock(KIT_OPTIONS);

describe('test kit in the browser (msw service worker)', () => {
  registerTestKitScenarios(() => service);
});
