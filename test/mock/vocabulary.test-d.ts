import { describe, expectTypeOf, it } from 'vitest';
import {
  createMockService,
  type MockServerOptions,
  type MockServiceOptions,
  type RecordedRequest,
  startMockServer,
} from '../../src/testing/index.js';

describe('the mock’s vocabulary', () => {
  it('takes allowedOrigins and tokenLifetimeMs, and still their deprecated aliases', () => {
    createMockService({ allowedOrigins: ['http://localhost:5173'], tokenLifetimeMs: 60_000 });
    createMockService({ corsOrigins: ['http://localhost:5173'], tokenLifetimeSeconds: 60 });
    void startMockServer({ allowedOrigins: ['http://localhost:5173'], tokenLifetimeMs: 1_500 });
    void startMockServer({ corsOrigins: ['http://localhost:5173'], tokenLifetimeSeconds: 60 });
    expectTypeOf<MockServiceOptions['allowedOrigins']>().toEqualTypeOf<
      readonly string[] | undefined
    >();
    expectTypeOf<MockServerOptions['tokenLifetimeMs']>().toEqualTypeOf<number | undefined>();

    // @ts-expect-error a list of origins, not one
    createMockService({ allowedOrigins: 'http://localhost:5173' });
    // @ts-expect-error milliseconds as a number
    createMockService({ tokenLifetimeMs: '60s' });
    // @ts-expect-error no such option: the flag's name is not the option's
    createMockService({ allowedOrigin: ['http://localhost:5173'] });
  });

  it('reads the request log with a method, like projects() and oauth.tokens()', () => {
    const mock = createMockService();
    expectTypeOf(mock.requestLog()).toEqualTypeOf<RecordedRequest[]>();
    expectTypeOf(mock.requests).toEqualTypeOf<readonly RecordedRequest[]>();
    expectTypeOf(mock.projects).toBeFunction();

    // @ts-expect-error requestLog is a method, not a list
    const log: readonly RecordedRequest[] = mock.requestLog;
    // @ts-expect-error it takes no arguments
    mock.requestLog(10);
    void log;
  });
});
