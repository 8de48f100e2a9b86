import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';
import { KIT_OPTIONS, registerTestKitScenarios } from '../helpers/test-kit-scenarios.js';
import { useWorkerMock } from '../helpers/use-worker-mock.js';

const service = useWorkerMock(KIT_OPTIONS);

describe('test kit in the browser (msw service worker)', () => {
  registerTestKitScenarios(() => service);

  it('refuses an unknown option and a seed off the project shape in the page too', () => {
    expect(() => createMockService({ project: [] } as never)).toThrow(
      new ConfigurationError('createMockService has no option "project"; did you mean "projects"?'),
    );
    expect(() => createMockService({ projects: [{ name: 'Demo' }] as never })).toThrow(
      new ConfigurationError('projects[0].agentId: expected a non-empty string, got nothing'),
    );
  });
});
