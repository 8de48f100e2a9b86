import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockService, type MockServer, startMockServer } from '../../src/testing/index.js';
import { create, demo, errorOf, send } from '../helpers/send-to-mock.js';

const key = (value: string) => ({ 'idempotency-key': value });

afterEach(() => {
  vi.useRealTimers();
});

describe('Idempotency-Key', () => {
  it('answers 409 to a request arriving while the first with its key is processed', async () => {
    const mock = createMockService();
    const responses = await Promise.all([
      create(mock, { headers: key('k') }),
      create(mock, { headers: key('k') }),
    ]);

    expect(responses.map((response) => response.status)).toEqual([201, 409]);
    expect(await errorOf(responses[1] as Response)).toMatchObject({
      type: 'idempotency_error',
      message: expect.stringContaining('"k" is still being processed'),
    });
    expect(mock.projects()).toHaveLength(1);
  });

  it('answers 409 however long the first request takes, then replays it', async () => {
    vi.useFakeTimers();
    const mock = createMockService();
    mock.enqueue({ kind: 'delay', ms: 5_000 });

    const first = create(mock, { headers: key('slow') });
    await vi.advanceTimersByTimeAsync(4_999);
    expect((await create(mock, { headers: key('slow') })).status).toBe(409);
    await vi.advanceTimersByTimeAsync(1);
    expect((await first).status).toBe(201);

    const after = await create(mock, { headers: key('slow') });
    expect(after.status).toBe(201);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
  });

  it('frees the key when the first request is abandoned, so a retry is served', async () => {
    const mock = createMockService();
    mock.enqueue({ kind: 'hang' });
    const controller = new AbortController();

    const abandoned = create(mock, { headers: key('k'), signal: controller.signal });
    await vi.waitFor(() => expect(mock.requestLog()).toHaveLength(1));
    controller.abort();
    expect((await abandoned).type).toBe('error');

    const retried = await create(mock, { headers: key('k') });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('frees the key after a dropped connection, and after reset()', async () => {
    const mock = createMockService();
    mock.enqueue({ kind: 'network-error' });
    expect((await create(mock, { headers: key('k') })).type).toBe('error');
    expect((await create(mock, { headers: key('k') })).status).toBe(201);

    mock.enqueue({ kind: 'hang' });
    const hanging = create(mock, { headers: key('k2') });
    await vi.waitFor(() => expect(mock.requestLog()).toHaveLength(3));
    mock.reset();
    await hanging;
    expect((await create(mock, { headers: key('k2') })).status).toBe(201);
  });

  it('answers 422 for a key reused with another body, and creates nothing', async () => {
    const mock = createMockService();
    await create(mock, { headers: key('k') });
    const reused = await create(mock, { headers: key('k'), body: { name: 'Other', agentId: 'a' } });

    expect(reused.status).toBe(422);
    expect(await errorOf(reused)).toMatchObject({
      type: 'idempotency_error',
      message: 'Idempotency-Key "k" was already used with a different request body',
    });
    expect(mock.projects()).toHaveLength(1);
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

  it('ignores the key on GET and on the token endpoint', async () => {
    const mock = createMockService();
    await send(mock, '/v1/projects/proj_x', { headers: key('k') });
    const second = await send(mock, '/v1/projects/proj_x', { headers: key('k') });
    expect(second.headers.get('idempotent-replayed')).toBeNull();

    const token = () =>
      send(mock, '/oauth/token', {
        method: 'POST',
        authorization: `Basic ${btoa('client:secret')}`,
        raw: 'grant_type=client_credentials',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...key('t') },
      });
    const [a, b] = await Promise.all([token(), token()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await a.json()).access_token).not.toBe((await b.json()).access_token);
  });
});

describe('Idempotency-Key over HTTP, between callers', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({
      apiKeys: ['sk_alice', 'sk_bob'],
      oauthClients: [
        { clientId: 'reporting', clientSecret: 's3cret' },
        { clientId: 'billing', clientSecret: 's3cret' },
      ],
    });
  });
  afterEach(() => server.service.reset());
  afterAll(() => server.close());

  /** A create sent over a real socket with `credential` as the bearer. */
  const createAs = (credential: string, idempotencyKey: string, body: unknown = demo) =>
    fetch(`${server.baseUrl}/v1/projects`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${credential}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
    });

  /** A fresh access token for an OAuth client of the mock. */
  const tokenFor = async (clientId: string) => {
    const response = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${clientId}:s3cret`)}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };

  it('refuses an empty key with 400 and the error body, and creates nothing', async () => {
    const response = await createAs('sk_alice', '');

    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('Idempotency-Key is empty'),
    });
    expect((await createAs('sk_bob', '')).status).toBe(400);
    expect(server.service.projects()).toEqual([]);
  });

  it('gives two API keys sending the same key and body a project each', async () => {
    const alice = await createAs('sk_alice', 'order-1');
    const bob = await createAs('sk_bob', 'order-1');

    expect([alice.status, bob.status]).toEqual([201, 201]);
    expect(bob.headers.get('idempotent-replayed')).toBeNull();
    const ids = [(await alice.json()).id, (await bob.json()).id];
    expect(ids[0]).not.toBe(ids[1]);
    expect(server.service.projects()).toHaveLength(2);
    // And another body under the same key is each caller's own business: no 422 across callers.
    expect((await createAs('sk_bob', 'order-2', { name: 'B', agentId: 'a' })).status).toBe(201);
    expect((await createAs('sk_alice', 'order-2')).status).toBe(201);
  });

  it('scopes keys to the OAuth client behind a token, not to the token', async () => {
    const [reporting, reportingAgain, billing] = await Promise.all([
      tokenFor('reporting'),
      tokenFor('reporting'),
      tokenFor('billing'),
    ]);

    const first = await createAs(reporting, 'order-1');
    const otherClient = await createAs(billing, 'order-1');
    const sameClient = await createAs(reportingAgain, 'order-1');

    expect([first.status, otherClient.status, sameClient.status]).toEqual([201, 201, 201]);
    expect(otherClient.headers.get('idempotent-replayed')).toBeNull();
    expect(sameClient.headers.get('idempotent-replayed')).toBe('true');
    expect((await sameClient.json()).id).toBe((await first.json()).id);
    expect(server.service.projects()).toHaveLength(2);
  });
});
