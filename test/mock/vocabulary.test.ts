import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentChatError, ConfigurationError } from '../../src/index.js';
import { createMockService, startMockServer } from '../../src/testing/index.js';
import { basicCredentials } from '../helpers/mock-scenarios.js';
import { create, send } from '../helpers/send-to-mock.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Asks the mock's token endpoint for a token, as any client. */
async function tokenAnswer(mock: ReturnType<typeof createMockService>) {
  const response = await send(mock, '/oauth/token', {
    method: 'POST',
    authorization: basicCredentials('a', 'b'),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: 'grant_type=client_credentials',
  });
  return (await response.json()) as { expires_in: number };
}

/** The error `act` throws, for asserting its class and message together. */
function thrownBy(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('ConfigurationError for every refused option or argument', () => {
  it.each<[string, () => unknown, string]>([
    ['an unknown option', () => createMockService({ latency: 1 } as never), 'did you mean'],
    ['a baseUrl that is no URL', () => createMockService({ baseUrl: '/api' }), 'baseUrl must be'],
    ['an agent that is no function', () => createMockService({ agent: 'x' as never }), 'agent'],
    ['a negative latency', () => createMockService({ latencyMs: -1 }), 'latencyMs'],
    ['a list that is no array', () => createMockService({ apiKeys: 'k' as never }), 'apiKeys'],
    ['an unknown fault', () => createMockService().enqueue({ kind: 'nope' } as never), 'nope'],
    [
      'a fault status out of range',
      () => createMockService().enqueue({ kind: 'status', status: 99 }),
      'from 200 to 599',
    ],
    [
      'an override of no operation',
      () => createMockService().override('projects.list' as never, () => ({}) as never),
      'projects.list',
    ],
    ['an infinite latency', () => createMockService().setLatency(Infinity), 'latency'],
    [
      'a token that is no string',
      () => createMockService().oauth.revokeToken(1 as never),
      'revokeToken takes an access token string',
    ],
  ])('for %s, with its message', (_, act, message) => {
    const error = thrownBy(act);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(AgentChatError);
    expect((error as Error).message).toContain(message);
  });

  it('rejects startMockServer on a port out of range', async () => {
    await expect(startMockServer({ port: 70_000 })).rejects.toThrow(
      new ConfigurationError('port must be an integer from 0 to 65535, got 70000'),
    );
  });
});

describe('allowedOrigins, and corsOrigins its deprecated alias', () => {
  const page = 'http://localhost:5173';
  const preflight = (mock: ReturnType<typeof createMockService>, origin: string) =>
    send(mock, '/v1/projects', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });

  it('allows the origins listed, and refuses others', async () => {
    const mock = createMockService({ allowedOrigins: [page] });

    expect((await preflight(mock, page)).status).toBe(204);
    expect((await preflight(mock, 'http://evil.test')).status).toBe(403);
  });

  it('takes corsOrigins as before, warning once that it is deprecated', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const mock = createMockService({ corsOrigins: [page] });
    createMockService({ corsOrigins: [page] });

    expect((await preflight(mock, page)).status).toBe(204);
    expect((await preflight(mock, 'http://evil.test')).status).toBe(403);
    expect(warn.mock.calls).toEqual([
      [
        "agentchat: the mock's option corsOrigins is deprecated and will be removed in 2.0; use allowedOrigins instead (it behaves the same). See docs/upgrading.md.",
      ],
    ]);
    // A bad entry is named by the option it came under.
    expect(() => createMockService({ corsOrigins: ['localhost:5173'] })).toThrow(
      /^corsOrigins entries must be origins/,
    );
  });

  it('refuses both names at once', () => {
    expect(() => createMockService({ allowedOrigins: [page], corsOrigins: [page] })).toThrow(
      new ConfigurationError(
        'give allowedOrigins or corsOrigins (its deprecated alias), not both; they are the same option',
      ),
    );
  });

  it('serves startMockServer under either name', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const options of [{ allowedOrigins: [page] }, { corsOrigins: [page] }]) {
      const server = await startMockServer(options);
      try {
        // Outside the base URL the server answers itself, under the same rules.
        const outside = await fetch(`${server.url}/elsewhere`, { headers: { origin: page } });
        expect(outside.headers.get('access-control-allow-origin')).toBe(page);
      } finally {
        await server.close();
      }
    }
  });
});

describe('tokenLifetimeMs, and tokenLifetimeSeconds its deprecated alias', () => {
  it('issues tokens living that many milliseconds, expires_in in seconds rounded up', async () => {
    const mock = createMockService({ tokenLifetimeMs: 1_500 });

    expect((await tokenAnswer(mock)).expires_in).toBe(2);
    const [token] = mock.oauth.tokens();
    expect(token && token.expiresAt - token.issuedAt).toBe(1_500);
  });

  it('keeps an hour by default, and whole seconds as before', async () => {
    expect((await tokenAnswer(createMockService())).expires_in).toBe(3600);
    expect((await tokenAnswer(createMockService({ tokenLifetimeMs: 60_000 }))).expires_in).toBe(60);
  });

  it('takes tokenLifetimeSeconds as before, warning once that it is deprecated', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const mock = createMockService({ tokenLifetimeSeconds: 90 });
    createMockService({ tokenLifetimeSeconds: 90 });

    expect((await tokenAnswer(mock)).expires_in).toBe(90);
    const [token] = mock.oauth.tokens();
    expect(token && token.expiresAt - token.issuedAt).toBe(90_000);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toContain(
      "the mock's option tokenLifetimeSeconds is deprecated and will be removed in 2.0; use tokenLifetimeMs instead",
    );
    expect(() => createMockService({ tokenLifetimeSeconds: 1.5 })).toThrow(
      new ConfigurationError('tokenLifetimeSeconds must be a whole number of seconds > 0, got 1.5'),
    );
  });

  it('refuses both names at once, and a lifetime that is not whole milliseconds above 0', () => {
    expect(() => createMockService({ tokenLifetimeMs: 1000, tokenLifetimeSeconds: 1 })).toThrow(
      new ConfigurationError(
        'give tokenLifetimeMs or tokenLifetimeSeconds (its deprecated alias), not both; they are the same option',
      ),
    );
    for (const lifetime of [0, -1, 1.5, Number.NaN]) {
      expect(() => createMockService({ tokenLifetimeMs: lifetime })).toThrow(
        new ConfigurationError(
          `tokenLifetimeMs must be a whole number of milliseconds > 0, got ${lifetime}`,
        ),
      );
    }
  });
});

describe('requestLog(), and requests its deprecated alias', () => {
  it('answers the same requests under both names, warning once for requests', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const mock = createMockService();
    await create(mock);

    expect(mock.requestLog()).toHaveLength(1);
    expect(warn).not.toHaveBeenCalled();
    expect(mock.requests).toEqual(mock.requestLog());
    expect(mock.requests).toHaveLength(1);
    expect(warn.mock.calls).toEqual([
      [
        'agentchat: mock.requests is deprecated and will be removed in 2.0; use mock.requestLog() instead (it behaves the same). See docs/upgrading.md.',
      ],
    ]);
  });
});
