import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';
import { create, errorOf, send } from '../helpers/send-to-mock.js';

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

    expect(() => mock.enqueue({ kind: 'status', status: 99 })).toThrow(ConfigurationError);
    expect(() => mock.enqueue({ kind: 'malformed', status: 600, body: '' })).toThrow(
      ConfigurationError,
    );
    expect(() => mock.enqueue({ kind: 'delay', ms: -5 })).toThrow(ConfigurationError);
    expect(() => mock.enqueue({ kind: 'nope' } as never)).toThrow(ConfigurationError);
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
    await vi.waitFor(() => expect(mock.requestLog()).toHaveLength(1));
    mock.reset();

    expect((await hanging).type).toBe('error');
    expect((await create(mock)).status).toBe(201);
  });

  it('with a path, wait for a request to that path, matching :name segments', async () => {
    const mock = createMockService();
    mock.enqueue(
      { kind: 'status', status: 500, path: '/v1/projects/:id/chat' },
      { kind: 'status', status: 502 },
    );

    const created = await create(mock);
    expect(created.status).toBe(502);
    expect((await create(mock)).status).toBe(201);
    const chat = await send(mock, '/v1/projects/proj_any/chat', {
      method: 'POST',
      body: { message: 'Hi' },
    });
    expect(chat.status).toBe(500);
    expect(mock.requestLog().map((request) => request.fault)).toEqual([
      'status',
      undefined,
      'status',
    ]);
  });

  it('with a path, leave the requests to other paths to the faults behind them', async () => {
    const mock = createMockService();
    mock.enqueue({ kind: 'network-error', path: '/oauth/token' }, { kind: 'status', status: 503 });

    expect((await create(mock)).status).toBe(503);
    expect((await create(mock)).status).toBe(201);
  });

  it('refuse a path that does not start with /', () => {
    const mock = createMockService();

    expect(() => mock.enqueue({ kind: 'hang', path: 'oauth/token' })).toThrow(ConfigurationError);
    expect(() => mock.enqueue({ kind: 'hang', path: 42 as never })).toThrow(/starting with "\/"/);
  });
});
