import { getResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockService, type MockService } from '../../src/testing/index.js';

// These tests hand requests straight to the handlers (msw's getResponse): no interception, so fake
// timers and exact control over headers are possible. The network paths are in the scenarios.

interface SendOptions {
  method?: string;
  body?: unknown;
  raw?: string;
  authorization?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The mock's answer; every request these tests send is below the base URL, so there is one. */
async function send(mock: MockService, path: string, options: SendOptions = {}): Promise<Response> {
  const { method = 'GET', body, raw, authorization = 'Bearer sk_unit', headers, signal } = options;
  const init: RequestInit = {
    method,
    headers: { ...(authorization === null ? {} : { authorization }), ...headers },
  };
  if (raw !== undefined) init.body = raw;
  else if (body !== undefined) init.body = JSON.stringify(body);
  if (signal) init.signal = signal;
  const response = await getResponse(
    [...mock.handlers],
    new Request(`${mock.baseUrl}${path}`, init),
  );
  if (!response) throw new Error(`no handler answered ${method} ${path}`);
  return response;
}

const demo = { name: 'Demo', agentId: 'agent_1' };
const create = (mock: MockService, options: SendOptions = {}) =>
  send(mock, '/v1/projects', { method: 'POST', body: demo, ...options });

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { type: string; message: string } }).error;
}

afterEach(() => {
  vi.useRealTimers();
});

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
});

describe('authentication', () => {
  it('accepts any non-empty key by default', async () => {
    const mock = createMockService();

    expect((await create(mock, { authorization: 'Bearer whatever' })).status).toBe(201);
    expect((await create(mock, { authorization: 'Bearer ' })).status).toBe(401);
  });

  it('accepts only the listed keys, and none from an empty list', async () => {
    const listed = createMockService({ apiKeys: ['sk_a', 'sk_b'] });
    expect((await create(listed, { authorization: 'Bearer sk_b' })).status).toBe(201);
    expect((await create(listed, { authorization: 'Bearer sk_c' })).status).toBe(401);

    const none = createMockService({ apiKeys: [] });
    expect((await create(none, { authorization: 'Bearer sk_a' })).status).toBe(401);
  });

  it('reads the scheme case-insensitively and refuses other schemes', async () => {
    const mock = createMockService();

    expect((await create(mock, { authorization: 'bearer sk_unit' })).status).toBe(201);
    const basic = await errorOf(await create(mock, { authorization: 'Basic dXNlcjpwYXNz' }));
    expect(basic).toMatchObject({ type: 'authentication_error', message: /Malformed/ });
    expect((await create(mock, { authorization: 'Bearer two words' })).status).toBe(401);
  });
});

describe('routing and validation', () => {
  it('answers 404 for a chat to an unknown project before reading the message', async () => {
    const mock = createMockService();
    const response = await send(mock, '/v1/projects/proj_none/chat', { method: 'POST', body: {} });

    expect(response.status).toBe(404);
  });

  it('answers 404 for an empty id segment', async () => {
    const mock = createMockService();

    expect((await send(mock, '/v1/projects//chat', { method: 'POST', body: {} })).status).toBe(404);
  });

  it('refuses a null metadata and a non-string agentId', async () => {
    const mock = createMockService();
    const response = await create(mock, { body: { name: 'Demo', agentId: 7, metadata: null } });

    expect((await errorOf(response)).message).toBe(
      'agentId: expected a non-empty string, got a number; metadata: expected a JSON object, got null',
    );
  });

  it('parses a JSON body whatever its content type says', async () => {
    const mock = createMockService();
    const response = await create(mock, { headers: { 'content-type': 'text/plain' } });

    expect(response.status).toBe(201);
  });

  it('keeps metadata as given', async () => {
    const mock = createMockService();
    const metadata = { launched: '2026-01-01', seats: 3, nested: { tags: ['a'] } };
    await create(mock, { body: { ...demo, metadata } });

    expect(mock.projects()[0]?.metadata).toEqual(metadata);
  });
});

describe('request log', () => {
  it('logs a body that is not JSON as text, and an empty one as undefined', async () => {
    const mock = createMockService();
    await create(mock, { raw: 'name=Demo' });
    await send(mock, '/v1/projects', { method: 'POST', raw: '' });

    expect(mock.requests.map((request) => request.body)).toEqual(['name=Demo', undefined]);
  });

  it('returns a snapshot that later requests do not change', async () => {
    const mock = createMockService();
    const before = mock.requests;
    await create(mock);

    expect(before).toEqual([]);
    expect(mock.requests).toHaveLength(1);
  });
});

describe('idempotency', () => {
  const key = (value: string) => ({ 'idempotency-key': value });

  it('creates once for concurrent requests with the same key', async () => {
    const mock = createMockService();
    const responses = await Promise.all([
      create(mock, { headers: key('k') }),
      create(mock, { headers: key('k') }),
    ]);

    expect(mock.projects()).toHaveLength(1);
    expect(responses.map((response) => response.headers.get('idempotent-replayed'))).toEqual([
      null,
      'true',
    ]);
  });

  it('keeps a key per path', async () => {
    const mock = createMockService();
    const { id } = await (await create(mock, { headers: key('shared') })).json();
    const chat = await send(mock, `/v1/projects/${id}/chat`, {
      method: 'POST',
      body: { message: 'Hi' },
      headers: key('shared'),
    });

    expect(chat.status).toBe(200);
  });

  it('records only successful answers', async () => {
    const mock = createMockService();
    const refused = await create(mock, { body: { name: 'Demo' }, headers: key('k') });
    const accepted = await create(mock, { headers: key('k') });

    expect(refused.status).toBe(400);
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get('idempotent-replayed')).toBeNull();
  });

  it('does not record faulted requests', async () => {
    const mock = createMockService();
    mock.enqueue({ kind: 'status', status: 503 });
    await create(mock, { headers: key('k') });
    const retried = await create(mock, { headers: key('k') });

    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays with the first status and body and a fresh request id', async () => {
    const mock = createMockService();
    const first = await create(mock, { headers: key('k') });
    const replay = await create(mock, { headers: key('k') });

    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe(await first.text());
    expect(replay.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  it('ignores the key on GET', async () => {
    const mock = createMockService();
    await send(mock, '/v1/projects/proj_x', { headers: key('k') });
    const second = await send(mock, '/v1/projects/proj_x', { headers: key('k') });

    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('faults', () => {
  it('answer before authentication and before the store', async () => {
    const mock = createMockService({ apiKeys: ['sk_a'] });
    mock.enqueue({ kind: 'status', status: 500 });

    const error = await errorOf(await create(mock, { authorization: null }));
    expect(error).toMatchObject({ type: 'api_error', message: 'Internal server error' });
    expect(mock.projects()).toEqual([]);
  });

  it('send a string body raw, with the content type the test gives', async () => {
    const mock = createMockService();
    mock.enqueue({
      kind: 'status',
      status: 502,
      body: '<html>Bad gateway</html>',
      headers: { 'Content-Type': 'text/html' },
    });

    const response = await create(mock);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toBe('<html>Bad gateway</html>');
  });

  it('send any other body as JSON', async () => {
    const mock = createMockService();
    mock.enqueue({ kind: 'status', status: 200, body: { id: 42 } });

    const response = await create(mock);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ id: 42 });
  });

  it('answer a status below 400 without a body unless one is given', async () => {
    const mock = createMockService();
    mock.enqueue({ kind: 'status', status: 204 }, { kind: 'status', status: 202 });

    expect(await (await create(mock)).text()).toBe('');
    expect(await (await create(mock)).text()).toBe('');
  });

  it('are refused at enqueue time when they could not be answered', () => {
    const mock = createMockService();

    expect(() => mock.enqueue({ kind: 'status', status: 99 })).toThrow(RangeError);
    expect(() => mock.enqueue({ kind: 'malformed', status: 600, body: '' })).toThrow(RangeError);
    expect(() => mock.enqueue({ kind: 'delay', ms: -5 })).toThrow(RangeError);
    expect(() => mock.enqueue({ kind: 'nope' } as never)).toThrow(TypeError);
  });

  it('queue nothing when one of several is refused', async () => {
    const mock = createMockService();

    expect(() =>
      mock.enqueue({ kind: 'network-error' }, { kind: 'delay', ms: Number.NaN }),
    ).toThrow();
    expect((await create(mock)).status).toBe(201);
  });

  it('settle a hang when its signal aborts', async () => {
    const mock = createMockService();
    mock.enqueue({ kind: 'hang' });
    const controller = new AbortController();

    const pending = create(mock, { signal: controller.signal });
    controller.abort();
    expect((await pending).type).toBe('error');
  });

  it('are dropped, with hanging requests, by reset()', async () => {
    const mock = createMockService();
    mock.enqueue({ kind: 'hang' }, { kind: 'status', status: 500 });

    const hanging = create(mock);
    await vi.waitFor(() => expect(mock.requests).toHaveLength(1));
    mock.reset();

    expect((await hanging).type).toBe('error');
    expect((await create(mock)).status).toBe(201);
  });
});

describe('latency', () => {
  it('holds every answer for the set time', async () => {
    vi.useFakeTimers();
    const mock = createMockService({ latencyMs: 1_000 });
    let answered = false;
    const pending = create(mock).then(() => {
      answered = true;
    });

    await vi.advanceTimersByTimeAsync(999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(answered).toBe(true);
  });

  it('adds a delay fault to one request only', async () => {
    vi.useFakeTimers();
    const mock = createMockService();
    mock.enqueue({ kind: 'delay', ms: 500 });

    const delayed = create(mock);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect((await delayed).status).toBe(201);

    expect((await create(mock)).status).toBe(201);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its timer when the request aborts', async () => {
    vi.useFakeTimers();
    const mock = createMockService();
    mock.setLatency(60_000);
    const controller = new AbortController();

    const pending = create(mock, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();

    expect((await pending).type).toBe('error');
    expect(vi.getTimerCount()).toBe(0);
    expect(mock.projects()).toEqual([]);
  });

  it('goes back to the option on reset()', async () => {
    vi.useFakeTimers();
    const mock = createMockService({ latencyMs: 300 });
    mock.setLatency(0);
    mock.reset();

    const pending = create(mock);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(300);
    expect((await pending).status).toBe(201);
  });
});

describe('projects()', () => {
  it('returns copies that cannot change the store', async () => {
    const mock = createMockService();
    await create(mock, { body: { ...demo, metadata: { seats: 1 } } });

    const [copy] = mock.projects();
    if (copy) copy.metadata.seats = 99;
    expect(mock.projects()[0]?.metadata).toEqual({ seats: 1 });
  });
});
