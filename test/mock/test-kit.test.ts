import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  createMockService,
  type MockServer,
  startMockServer,
  strictListen,
} from '../../src/testing/index.js';
import { KIT_OPTIONS, registerTestKitScenarios } from '../helpers/test-kit-scenarios.js';
import { mswMajor } from './msw-major.js';

describe(`test kit on msw ${mswMajor}'s msw/node`, () => {
  const service = createMockService(KIT_OPTIONS);
  const server = setupServer(...service.handlers);
  beforeAll(() => strictListen(server));
  afterAll(() => server.close());

  registerTestKitScenarios(() => service);
});

describe(`test kit over HTTP (startMockServer, msw ${mswMajor})`, () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer(KIT_OPTIONS);
  });
  afterAll(() => server.close());

  registerTestKitScenarios(() => server.service);
});
