export { createMockService } from './mock-service.js';
export { type MockServer, type MockServerOptions, startMockServer } from './node-server.js';
export type {
  Fault,
  MockService,
  MockServiceOptions,
  RecordedRequest,
  StoredProject,
} from './types.js';
