import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';
import { create, send } from '../helpers/send-to-mock.js';

const PAGE = 'http://localhost:5173';

const preflight = (mock: ReturnType<typeof createMockService>, origin: string, headers = {}) =>
  send(mock, '/v1/projects', {
    method: 'OPTIONS',
    authorization: null,
    headers: { origin, 'access-control-request-method': 'POST', ...headers },
  });

describe('CORS', () => {
  it('reflects any origin by default, with the headers the service sends when none are asked for', async () => {
    const response = await preflight(createMockService(), 'https://app.example');

    expect(response.status).toBe(204);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers':
        'authorization, content-type, idempotency-key, accept, x-agentchat-retry-count',
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    });
    expect(await response.text()).toBe('');
  });

  it('allows only the configured origins, refusing others with 403', async () => {
    const mock = createMockService({ allowedOrigins: [PAGE] });

    expect((await preflight(mock, PAGE)).status).toBe(204);
    const refused = await preflight(mock, 'http://evil.test');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect((await refused.json()).error.message).toBe(
      `Origin http://evil.test is not allowed; the mock allows ${PAGE}`,
    );

    const answered = await create(mock, { headers: { origin: 'http://evil.test' } });
    expect(answered.status).toBe(201);
    expect(answered.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('exposes the retry headers always, and every other header an answer carries', async () => {
    const mock = createMockService();
    mock.enqueue({ kind: 'status', status: 503, headers: { 'x-ratelimit-remaining': '0' } });

    const response = await create(mock, { headers: { origin: PAGE } });
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'x-request-id, retry-after, retry-after-ms, x-ratelimit-remaining',
    );
    const plain = await create(mock);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Origin');
  });

  it('treats an OPTIONS without Access-Control-Request-Method as a request to the service', async () => {
    const mock = createMockService();
    const response = await send(mock, '/v1/projects', {
      method: 'OPTIONS',
      headers: { origin: PAGE },
    });

    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(mock.requestLog()).toHaveLength(1);
  });

  it('refuses allowedOrigins entries that are not origins', () => {
    for (const origin of ['localhost:5173', 'http://localhost:5173/', 'http://a.test/app', '*']) {
      expect(() => createMockService({ allowedOrigins: [origin] })).toThrow(ConfigurationError);
    }
  });
});
