import { afterEach, expect, it } from 'vitest';
import type { MockService, MockServiceOptions } from '../../src/testing/index.js';
import type { Exchange } from './openapi-contract.js';

/** The key every runner's service accepts; any other is unknown. */
export const TEST_API_KEY = 'sk_test_scenarios';

/** The OAuth client every runner's service accepts. Its secret needs form-urlencoding in Basic. */
export const TEST_CLIENT = {
  clientId: 'scenario client',
  clientSecret: 's3cret:with+plus&amp',
  scopes: ['projects:read', 'projects:write'],
} as const;

/** What every runner creates its service with. */
export const SCENARIO_OPTIONS = {
  apiKeys: [TEST_API_KEY],
  oauthClients: [TEST_CLIENT],
} satisfies MockServiceOptions;

/** A page origin the service's CORS rules allow (all are, by default). */
const PAGE_ORIGIN = 'http://localhost:5173';

/** How a runner hands its service to the shared scenarios. */
export interface ScenarioRunner {
  /** The service under test; called inside each test, after the runner's setup has run. */
  service(): MockService;
  /**
   * Whether requests can carry `Origin` and `Access-Control-Request-*` as written. Browsers set
   * those themselves, and msw's service worker answers a page without CORS, so the CORS
   * scenarios run where a client can speak CORS by hand: msw/node and the HTTP server.
   */
  speaksCorsByHand: boolean;
  /**
   * What is wrong with the answers by docs/openapi.yaml (see openapi-contract.ts); run after
   * each scenario on every answer it got, but those of `malformed` faults, which break the
   * contract on purpose.
   */
  contractProblems(exchanges: Exchange[]): Promise<string[]>;
}

/** application/x-www-form-urlencoded encoding of one value, as RFC 6749 section 2.3.1 asks. */
export function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice('v='.length);
}

/** The HTTP Basic credentials of RFC 6749 section 2.3.1: each part form-urlencoded, then Base64. */
export function basicCredentials(clientId: string, clientSecret: string): string {
  return `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
}

interface CallOptions {
  method?: string;
  body?: unknown;
  /** Sent as is: a string body is not JSON-encoded, for testing bodies that are not JSON. */
  rawBody?: string;
  key?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Registers the behaviour every way of running the mock must share. Call inside a `describe`
 * whose hooks start the mock; the scenarios reset it after each test.
 */
export function registerMockScenarios(runner: ScenarioRunner): void {
  const mock = () => runner.service();
  const exchanges: Promise<Exchange | undefined>[] = [];

  afterEach(async () => {
    mock().reset();
    const answered = (await Promise.all(exchanges.splice(0))).filter(
      (exchange) => exchange !== undefined,
    );
    expect(await runner.contractProblems(answered), 'answers by docs/openapi.yaml').toEqual([]);
  });

  /** Keeps a copy of an answer for the contract check, unless a malformed fault gave it. */
  function record(method: string, path: string, response: Response): void {
    const requestId = response.headers.get('x-request-id');
    const entry = mock()
      .requestLog()
      .find((request) => request.requestId === requestId);
    if (entry?.fault === 'malformed') return;
    const copy = response.clone();
    exchanges.push(
      copy.text().then((body) => ({
        method,
        path: path.split('?')[0] ?? path,
        status: copy.status,
        headers: Object.fromEntries(copy.headers),
        body,
      })),
    );
  }

  async function call(path: string, options: CallOptions = {}): Promise<Response> {
    const { method = 'GET', body, rawBody, key = TEST_API_KEY, headers, signal } = options;
    const init: RequestInit = {
      method,
      headers: {
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        ...(body === undefined && rawBody === undefined
          ? {}
          : { 'content-type': 'application/json' }),
        ...headers,
      },
    };
    if (rawBody !== undefined) init.body = rawBody;
    else if (body !== undefined) init.body = JSON.stringify(body);
    if (signal) init.signal = signal;
    const response = await fetch(`${mock().baseUrl}${path}`, init);
    record(method, path, response);
    return response;
  }

  const create = (
    body: unknown = { name: 'Demo', agentId: 'agent_support' },
    options: CallOptions = {},
  ) => call('/v1/projects', { method: 'POST', body, ...options });

  /** A token request; the scenario client's credentials go in HTTP Basic unless told otherwise. */
  const requestToken = (
    form: Record<string, string>,
    authorization: string | null = basicCredentials(TEST_CLIENT.clientId, TEST_CLIENT.clientSecret),
  ) =>
    call('/oauth/token', {
      method: 'POST',
      key: null,
      rawBody: new URLSearchParams(form).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(authorization === null ? {} : { authorization }),
      },
    });

  async function expectOAuthError(response: Response, status: number, error: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ error, error_description: expect.any(String) });
  }

  async function expectError(response: Response, status: number, type: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await response.json();
    expect(body).toEqual({
      error: { type, message: expect.any(String), requestId: response.headers.get('x-request-id') },
    });
    return body.error.message as string;
  }

  it('creates, reads back and chats with a project', async () => {
    const created = await (
      await create({ name: 'Support', agentId: 'agent_support', metadata: { tier: 2 } })
    ).json();

    const fetched = await call(`/v1/projects/${created.id}`);
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual({
      id: created.id,
      name: 'Support',
      agentId: 'agent_support',
      status: 'active',
      metadata: { tier: 2 },
      createdAt: created.createdAt,
    });

    const chat = await call(`/v1/projects/${created.id}/chat`, {
      method: 'POST',
      body: { message: 'How do I reset my password?' },
    });
    expect(chat.status).toBe(200);
    const reply = await chat.json();
    expect(reply.message).toContain('agent_support');
    expect(reply.message).toContain('How do I reset my password?');
    expect(reply.suggestions.length).toBeGreaterThanOrEqual(2);
    expect(reply.suggestions.length).toBeLessThanOrEqual(3);
    for (const suggestion of reply.suggestions) expect(suggestion).toContain('reset my password');
  });

  it('answers create with 201 and only id, name, status and createdAt', async () => {
    const response = await create({ name: 'Demo', agentId: 'agent_1', metadata: { a: 1 } });

    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'id', 'name', 'status']);
    expect(body.id).toMatch(/^proj_[A-Za-z0-9]+$/);
    expect(body).toMatchObject({ name: 'Demo', status: 'active' });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    expect(mock().projects()).toEqual([{ ...body, agentId: 'agent_1', metadata: { a: 1 } }]);
  });

  it('logs method, path, headers and body of each request', async () => {
    await create({ name: 'Demo', agentId: 'agent_1' }, { headers: { 'X-Trace': 'abc' } });
    await call('/v1/projects/proj_missing', { key: null });

    const [post, get] = mock().requestLog();
    expect(mock().requestLog()).toHaveLength(2);
    expect(post).toMatchObject({
      method: 'POST',
      url: `${mock().baseUrl}/v1/projects`,
      path: `${new URL(mock().baseUrl).pathname}/v1/projects`,
      body: { name: 'Demo', agentId: 'agent_1' },
      status: 201,
    });
    expect(post?.headers).toMatchObject({
      authorization: `Bearer ${TEST_API_KEY}`,
      'content-type': 'application/json',
      'x-trace': 'abc',
    });
    expect(post?.fault).toBeUndefined();
    expect(get).toMatchObject({ method: 'GET', body: undefined, status: 401 });
    expect(get?.headers.authorization).toBeUndefined();
  });

  it('replays a repeated Idempotency-Key with the same body', async () => {
    const headers = { 'idempotency-key': 'key-1' };
    const first = await create({ name: 'Demo', agentId: 'agent_1' }, { headers });
    // Same fields in another order: still the same request.
    const second = await create({ agentId: 'agent_1', name: 'Demo' }, { headers });

    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await second.json()).toEqual(await first.json());
    expect(mock().projects()).toHaveLength(1);
  });

  it('answers 422 for an Idempotency-Key reused with a different body', async () => {
    const headers = { 'idempotency-key': 'key-2' };
    await create({ name: 'Demo', agentId: 'agent_1' }, { headers });
    const reused = await create({ name: 'Other', agentId: 'agent_1' }, { headers });

    expect(await expectError(reused, 422, 'idempotency_error')).toContain('key-2');
    expect(mock().projects()).toHaveLength(1);
  });

  it('answers 409 while the first request with an Idempotency-Key is in flight', async () => {
    const headers = { 'idempotency-key': 'key-in-flight' };
    mock().enqueue({ kind: 'delay', ms: 300 });
    const first = create({ name: 'Demo', agentId: 'agent_1' }, { headers });
    await expect.poll(() => mock().requestLog().length).toBe(1);

    const concurrent = await create({ name: 'Demo', agentId: 'agent_1' }, { headers });
    expect(await expectError(concurrent, 409, 'idempotency_error')).toMatch(
      /still being processed/,
    );

    expect((await first).status).toBe(201);
    const retried = await create({ name: 'Demo', agentId: 'agent_1' }, { headers });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(mock().projects()).toHaveLength(1);
  });

  it('answers 401 without an API key, before looking at the body', async () => {
    const response = await create({ name: '' }, { key: null });

    expect(await expectError(response, 401, 'authentication_error')).toMatch(/missing/i);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(mock().projects()).toEqual([]);
  });

  it('answers 401 for an unknown API key, before looking up the project', async () => {
    const response = await call('/v1/projects/proj_missing', { key: 'sk_unknown' });

    const message = await expectError(response, 401, 'authentication_error');
    expect(message).not.toContain('sk_unknown');
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('issues an access token for client credentials and accepts it as a bearer token', async () => {
    const response = await requestToken({
      grant_type: 'client_credentials',
      scope: 'projects:read',
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const token = await response.json();
    expect(token).toEqual({
      access_token: expect.stringMatching(/^at_[A-Za-z0-9]{32}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'projects:read',
    });
    expect(mock().oauth.tokens()).toMatchObject([
      { accessToken: token.access_token, clientId: TEST_CLIENT.clientId, scope: 'projects:read' },
    ]);
    expect((await create(undefined, { key: token.access_token })).status).toBe(201);
    expect(
      mock()
        .requestLog()
        .map((request) => [request.method, request.path.split('/').at(-1)]),
    ).toEqual([
      ['POST', 'token'],
      ['POST', 'projects'],
    ]);
  });

  it('takes the client credentials from the form body too', async () => {
    const response = await requestToken(
      {
        grant_type: 'client_credentials',
        client_id: TEST_CLIENT.clientId,
        client_secret: TEST_CLIENT.clientSecret,
      },
      null,
    );

    expect(response.status).toBe(200);
  });

  it('refuses token requests by RFC 6749: wrong secret, bad grant, bad scope, two methods', async () => {
    const wrongSecret = await requestToken(
      { grant_type: 'client_credentials' },
      basicCredentials(TEST_CLIENT.clientId, 'wrong'),
    );
    await expectOAuthError(wrongSecret, 401, 'invalid_client');
    expect(wrongSecret.headers.get('www-authenticate')).toMatch(/^Basic /);

    // The secret sent without form-urlencoding first: "+" reads as a space, so it does not match.
    const unencoded = await requestToken(
      { grant_type: 'client_credentials' },
      `Basic ${btoa(`${TEST_CLIENT.clientId}:${TEST_CLIENT.clientSecret}`)}`,
    );
    await expectOAuthError(unencoded, 401, 'invalid_client');

    await expectOAuthError(
      await requestToken({ grant_type: 'password' }),
      400,
      'unsupported_grant_type',
    );
    await expectOAuthError(
      await requestToken({ grant_type: 'client_credentials', scope: 'projects:delete' }),
      400,
      'invalid_scope',
    );
    await expectOAuthError(
      await requestToken({ grant_type: 'client_credentials', client_secret: 'x' }),
      400,
      'invalid_request',
    );
    expect(mock().oauth.tokens()).toEqual([]);
  });

  it('refuses an expired or revoked access token with 401', async () => {
    const issue = async () =>
      (await (await requestToken({ grant_type: 'client_credentials' })).json())
        .access_token as string;
    const [expiring, revoked, kept] = [await issue(), await issue(), await issue()];
    mock().oauth.revokeToken(revoked);
    expect((await create(undefined, { key: kept })).status).toBe(201);

    mock().oauth.expireTokens();
    for (const token of [expiring, revoked, kept]) {
      const response = await call('/v1/projects/proj_missing', { key: token });
      await expectError(response, 401, 'authentication_error');
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    expect(
      mock()
        .oauth.tokens()
        .map((token) => token.revoked),
    ).toEqual([false, true, false]);
  });

  it('answers a fault aimed at the token endpoint only to a token request', async () => {
    mock().enqueue({
      kind: 'status',
      status: 503,
      headers: { 'retry-after': '0' },
      path: '/oauth/token',
    });

    expect((await create()).status).toBe(201);
    const failed = await requestToken({ grant_type: 'client_credentials' });
    await expectError(failed, 503, 'api_error');
    expect((await requestToken({ grant_type: 'client_credentials' })).status).toBe(200);
    expect(
      mock()
        .requestLog()
        .map((request) => request.fault),
    ).toEqual([undefined, 'status', undefined]);
  });

  it('answers 404 for an unknown project, on get and on chat', async () => {
    const get = await call('/v1/projects/proj_missing');
    expect(await expectError(get, 404, 'not_found_error')).toContain('proj_missing');

    const chat = await call('/v1/projects/proj_missing/chat', {
      method: 'POST',
      body: { message: 'Hi' },
    });
    await expectError(chat, 404, 'not_found_error');
  });

  it('decodes a percent-encoded id exactly once', async () => {
    const { id } = await (await create()).json();
    const encoded = id.replace('_', '%5F');

    expect((await call(`/v1/projects/${encoded}`)).status).toBe(200);
    expect((await call(`/v1/projects/${encoded.replace('%', '%25')}`)).status).toBe(404);
  });

  it('answers 404 for an unknown route under the base URL', async () => {
    await expectError(await call('/v2/projects'), 404, 'not_found_error');
    await expectError(await call('/v1/projects/proj_1/chat/extra'), 404, 'not_found_error');
  });

  it('answers 405 with Allow for a wrong method on a known path', async () => {
    const list = await call('/v1/projects');
    await expectError(list, 405, 'method_not_allowed_error');
    expect(list.headers.get('allow')).toBe('POST');

    const remove = await call('/v1/projects/proj_1', { method: 'DELETE' });
    await expectError(remove, 405, 'method_not_allowed_error');
    expect(remove.headers.get('allow')).toBe('GET');
  });

  it('answers 400 naming the field at fault', async () => {
    const { id } = await (await create()).json();
    const cases: Array<[Promise<Response>, RegExp]> = [
      [create(undefined, { rawBody: '{"name":' }), /^body: .*not JSON/],
      [create([{ name: 'Demo' }]), /^body: expected a JSON object/],
      [create({ agentId: 'agent_1' }), /^name: expected a non-empty string/],
      [
        create({ name: 'Demo', agentId: 'agent_1', metadata: [] }),
        /^metadata: expected a JSON object/,
      ],
      [
        call(`/v1/projects/${id}/chat`, { method: 'POST', body: { message: '' } }),
        /^message: expected a non-empty string/,
      ],
    ];

    for (const [response, message] of cases) {
      expect(await expectError(await response, 400, 'invalid_request_error')).toMatch(message);
    }
    expect(mock().projects()).toHaveLength(1);
  });

  it('ignores unknown fields', async () => {
    const response = await create({ name: 'Demo', agentId: 'agent_1', color: 'blue' });

    expect(response.status).toBe(201);
    expect(mock().projects()[0]).not.toHaveProperty('color');
  });

  it('answers an injected 503 with Retry-After, then serves the next request', async () => {
    mock().enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '2' } });

    const failed = await create();
    await expectError(failed, 503, 'api_error');
    expect(failed.headers.get('retry-after')).toBe('2');
    expect(mock().projects()).toEqual([]);

    expect((await create()).status).toBe(201);
    expect(
      mock()
        .requestLog()
        .map((request) => [request.fault, request.status]),
    ).toEqual([
      ['status', 503],
      [undefined, 201],
    ]);
  });

  it('answers an injected malformed 200 body', async () => {
    mock().enqueue({ kind: 'malformed', body: '{"id": "proj_1", ' });

    const response = await create();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"id": "proj_1", ');
    expect(mock().projects()).toEqual([]);
  });

  it('drops the connection on an injected network error', async () => {
    mock().enqueue({ kind: 'network-error' });

    await expect(create()).rejects.toThrow(TypeError);
    expect(mock().projects()).toEqual([]);
    expect(mock().requestLog()[0]?.fault).toBe('network-error');
    expect(mock().requestLog()[0]?.status).toBeUndefined();
    expect((await create()).status).toBe(201);
  });

  it('hangs until the request is aborted', async () => {
    mock().enqueue({ kind: 'hang' });
    const controller = new AbortController();

    const pending = create(undefined, { signal: controller.signal });
    const settled = expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => mock().requestLog().length).toBe(1);
    controller.abort();
    await settled;

    expect(mock().requestLog()[0]?.fault).toBe('hang');
    expect(mock().requestLog()[0]?.status).toBeUndefined();
    expect(mock().projects()).toEqual([]);
    expect((await create()).status).toBe(201);
  });

  it('delays one response with a delay fault, then answers normally', async () => {
    mock().enqueue({ kind: 'delay', ms: 80 });

    const started = performance.now();
    const response = await create();
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    expect(response.status).toBe(201);
    expect(mock().requestLog()[0]).toMatchObject({ fault: 'delay', status: 201 });
  });

  it('adds latency to every response', async () => {
    mock().setLatency(60);

    for (const request of [() => create(), () => call('/v1/nowhere')]) {
      const started = performance.now();
      await request();
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    }
  });

  it('reset() clears store, tokens, faults, log, idempotency records and latency', async () => {
    const headers = { 'idempotency-key': 'key-reset' };
    await create({ name: 'Before', agentId: 'agent_1' }, { headers });
    const token = (await (await requestToken({ grant_type: 'client_credentials' })).json())
      .access_token;
    mock().enqueue({ kind: 'status', status: 500 });
    mock().setLatency(60_000);

    mock().reset();

    expect(mock().projects()).toEqual([]);
    expect(mock().requestLog()).toEqual([]);
    expect(mock().oauth.tokens()).toEqual([]);
    expect((await create(undefined, { key: token })).status).toBe(401);
    // Far below the minute of latency reset() removed, whatever else the machine is doing.
    const started = performance.now();
    const after = await create({ name: 'After', agentId: 'agent_1' }, { headers });
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(after.status).toBe(201);
    expect(after.headers.get('idempotent-replayed')).toBeNull();
    expect(
      mock()
        .projects()
        .map((project) => project.name),
    ).toEqual(['After']);
  });

  if (runner.speaksCorsByHand) {
    it('answers a CORS preflight with the origin, methods and headers allowed, unlogged', async () => {
      mock().enqueue({ kind: 'status', status: 500 });
      const preflight = await call('/v1/projects', {
        method: 'OPTIONS',
        key: null,
        headers: {
          origin: PAGE_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,idempotency-key',
        },
      });

      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
      expect(preflight.headers.get('access-control-allow-headers')).toBe(
        'authorization,content-type,idempotency-key',
      );
      expect(preflight.headers.get('x-request-id')).toMatch(/^req_/);
      expect(mock().requestLog()).toEqual([]);
      // The queued fault is still there for the real request.
      expect((await create()).status).toBe(500);
    });

    it('lets a page on another origin read every answer and its headers', async () => {
      mock().enqueue({
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '1', 'retry-after-ms': '800' },
      });
      const headers = { origin: PAGE_ORIGIN };
      const limited = await create(undefined, { headers });
      const refused = await create(undefined, { headers, key: null });

      for (const response of [limited, refused]) {
        expect(response.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
        expect(response.headers.get('vary')).toContain('Origin');
        const exposed = response.headers.get('access-control-expose-headers')?.split(', ');
        expect(exposed).toEqual(
          expect.arrayContaining(['x-request-id', 'retry-after', 'retry-after-ms']),
        );
      }
      expect(refused.headers.get('access-control-expose-headers')).toContain('www-authenticate');
    });
  }

  it('sends x-request-id on every response', async () => {
    mock().enqueue(
      { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'malformed', body: 'nope' },
    );
    const responses = [
      await create(),
      await create(),
      await create(),
      await create({}),
      await call('/v1/projects/proj_missing'),
      await call('/v1/unknown'),
      await call('/v1/projects'),
      await create(undefined, { key: null }),
    ];

    expect(responses.map((response) => response.status)).toEqual([
      429, 200, 201, 400, 404, 404, 405, 401,
    ]);
    const ids = responses.map((response) => response.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
}
