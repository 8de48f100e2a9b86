import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { createMockService, startMockServer } from '../../src/testing/index.js';
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
    expect(() => createMockService({ baseUrl: '/api' })).toThrow(ConfigurationError);
  });

  it('refuses a negative or infinite latency', () => {
    expect(() => createMockService({ latencyMs: -1 })).toThrow(ConfigurationError);
    expect(() => createMockService().setLatency(Number.POSITIVE_INFINITY)).toThrow(
      ConfigurationError,
    );
  });

  it('leaves requests outside the base URL unanswered', async () => {
    const mock = createMockService();

    expect(
      await getResponse([...mock.handlers], new Request('https://other.test/api/v1/projects')),
    ).toBeUndefined();
    expect(
      await getResponse([...mock.handlers], new Request('https://agentchat.test/apix/v1/projects')),
    ).toBeUndefined();
    expect(mock.requestLog()).toEqual([]);
  });

  it('answers 404 for the base URL itself', async () => {
    const mock = createMockService();

    expect(await errorOf(await send(mock, ''))).toMatchObject({ type: 'not_found_error' });
  });

  it('refuses lists that are not arrays of strings', () => {
    expect(() => createMockService({ apiKeys: 'sk_test' as never })).toThrow(
      'apiKeys must be an array, got string',
    );
    expect(() => createMockService({ apiKeys: [42 as never] })).toThrow(ConfigurationError);
    expect(() => createMockService({ allowedOrigins: 'http://a.test' as never })).toThrow(
      ConfigurationError,
    );
  });

  it('refuses an unknown option, suggesting the one meant', async () => {
    expect(() => createMockService({ project: [] } as never)).toThrow(
      new ConfigurationError('createMockService has no option "project"; did you mean "projects"?'),
    );
    expect(() => createMockService({ xyz: 1 } as never)).toThrow(
      /^createMockService has no option "xyz"; its options are baseUrl, apiKeys, .*, projects, agent, maxRequestBytes, requestLogLimit$/,
    );
    await expect(startMockServer({ ports: 4010 } as never)).rejects.toThrow(
      new ConfigurationError('startMockServer has no option "ports"; did you mean "port"?'),
    );
    await expect(startMockServer({ baseUrl: 'https://x.test' } as never)).rejects.toThrow(
      /^startMockServer has no option "baseUrl"; its options are .*basePath, requestTimeoutMs$/,
    );
  });

  it('refuses a project seed off the service shape, naming the seed and the field', () => {
    expect(() =>
      createMockService({ projects: [{ name: 'A', agentId: 'a' }, { name: 'B' }] as never }),
    ).toThrow(
      new ConfigurationError('projects[1].agentId: expected a non-empty string, got nothing'),
    );
    expect(() => createMockService({ projects: [{ id: 'p1', name: 'A', agentId: 'a' }] })).toThrow(
      'projects[0].id: expected an id such as "proj_123", got a string',
    );
    expect(() =>
      createMockService({ projects: [{ name: 'A', agentId: 'a', createdAt: '31/01/2026' }] }),
    ).toThrow('projects[0].createdAt: expected an ISO 8601 UTC timestamp');
    expect(() =>
      createMockService({
        projects: [
          { id: 'proj_1', name: 'A', agentId: 'a' },
          { id: 'proj_1', name: 'B', agentId: 'b' },
        ],
      }),
    ).toThrow('projects[1].id: "proj_1" is already taken');
    expect(() => createMockService({ projects: {} as never })).toThrow(ConfigurationError);
    expect(() =>
      createMockService({ projects: [{ name: 'A', agentId: 'a', metdata: {} } as never] }),
    ).toThrow(
      new ConfigurationError('projects[0] has no field "metdata"; did you mean "metadata"?'),
    );
  });

  it('keeps its own copy of a seed', () => {
    const seed = { id: 'proj_1', name: 'A', agentId: 'a', metadata: { n: 1 } };
    const mock = createMockService({ projects: [seed] });
    seed.metadata.n = 2;

    expect(mock.projects()[0]?.metadata).toEqual({ n: 1 });
  });

  it('refuses an agent that is not a function, and an override of no operation', () => {
    expect(() => createMockService({ agent: 'echo' as never })).toThrow(
      new ConfigurationError('agent must be a function, got string'),
    );
    expect(() =>
      createMockService().override('chat.send', () => ({ kind: 'hang' }), { onse: true } as never),
    ).toThrow(
      new ConfigurationError('The chat.send override has no option "onse"; did you mean "once"?'),
    );
    expect(() =>
      createMockService().override('projects.list' as never, () => ({ kind: 'hang' })),
    ).toThrow(
      new ConfigurationError(
        'Unknown operation "projects.list" to override; the mock\'s operations are projects.create, projects.get, chat.send',
      ),
    );
  });
});
