import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { create, errorOf, send } from '../helpers/send-to-mock.js';

describe('createMockService options', () => {
  it('serves https://agentchat.test/api by default', () => {
    expect(createMockService().baseUrl).toBe('https://agentchat.test/api');
  });

  it('drops trailing slashes from baseUrl', async () => {
    const mock = createMockService({ baseUrl: 'https://x.test/api//' });

    expect(mock.baseUrl).toBe('https://x.test/api');
    expect((await create(mock)).status).toBe(201);
  });

  it('serves at the root of an origin', async () => {
    const mock = createMockService({ baseUrl: 'https://x.test/' });

    expect(mock.baseUrl).toBe('https://x.test');
    expect((await create(mock)).status).toBe(201);
  });

  it('refuses a baseUrl that is not an absolute URL', () => {
    expect(() => createMockService({ baseUrl: '/api' })).toThrow(TypeError);
  });

  it('refuses a negative or infinite latency', () => {
    expect(() => createMockService({ latencyMs: -1 })).toThrow(RangeError);
    expect(() => createMockService().setLatency(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('leaves requests outside the base URL unanswered', async () => {
    const mock = createMockService();

    expect(
      await getResponse([...mock.handlers], new Request('https://other.test/api/v1/projects')),
    ).toBeUndefined();
    expect(
      await getResponse([...mock.handlers], new Request('https://agentchat.test/apix/v1/projects')),
    ).toBeUndefined();
    expect(mock.requests).toEqual([]);
  });

  it('answers 404 for the base URL itself', async () => {
    const mock = createMockService();

    expect(await errorOf(await send(mock, ''))).toMatchObject({ type: 'not_found_error' });
  });

  it('refuses lists that are not arrays of strings', () => {
    expect(() => createMockService({ apiKeys: 'sk_test' as never })).toThrow(
      'apiKeys must be an array, got string',
    );
    expect(() => createMockService({ apiKeys: [42 as never] })).toThrow(TypeError);
    expect(() => createMockService({ corsOrigins: 'http://a.test' as never })).toThrow(TypeError);
  });
});
