/**
 * `client.request`: an endpoint the SDK does not know yet, called through the operations' own
 * transport. Each guarantee of the operations is shown on it here, over the mock service.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  AgentChatError,
  AuthenticationError,
  type CustomRequest,
  InternalServerError,
  NotFoundError,
  path,
  RequestValidationError,
  ResponseValidationError,
  VERSION,
} from '../../src/index.js';
import { recordingLogger } from '../helpers/reliability.js';
import { API_KEY, useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();

/** A 503 the client retries at once: the mock asks for no wait. */
const unavailable = { kind: 'status', status: 503, headers: { 'retry-after-ms': '0' } } as const;

const createBody = { name: 'Support', agentId: 'agent_1' };

describe('client.request', () => {
  it('sends a POST below baseUrl with the key, JSON headers and one Idempotency-Key', async () => {
    const created = await client().request({
      method: 'POST',
      path: '/v1/projects',
      body: createBody,
    });
    expect(created).toMatchObject({ id: expect.stringMatching(/^proj_/), name: 'Support' });
    const [request] = mock.requestLog();
    expect(request?.url).toBe('https://agentchat.test/api/v1/projects');
    expect(request?.body).toEqual(createBody);
    expect(request?.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': `agentchat-js/${VERSION}`,
      'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('answers the parsed JSON, and with .withResponse() the response and request id', async () => {
    const agentchat = client();
    const { id } = await agentchat.projects.create(createBody);
    const { data, response, requestId } = await agentchat
      .request({ method: 'GET', path: path`/v1/projects/${id}` })
      .withResponse();
    expect(data).toEqual(await agentchat.projects.get(id));
    expect(response.status).toBe(200);
    expect(requestId).toMatch(/^req_/);
    expect(mock.requestLog().at(-1)?.headers['idempotency-key']).toBeUndefined();
  });

  it('encodes the query: arrays repeat a parameter, undefined leaves it out', async () => {
    mock.enqueue({ kind: 'status', status: 200, body: [] });
    await client().request({
      method: 'GET',
      path: '/v1/projects',
      query: { limit: 20, role: ['owner', 'a&b=c'], archived: false, cursor: undefined },
    });
    expect(mock.requestLog()[0]?.url).toBe(
      'https://agentchat.test/api/v1/projects?limit=20&role=owner&role=a%26b%3Dc&archived=false',
    );
  });

  it('leaves a "__proto__" query key out, as it is no parameter of the caller\'s', async () => {
    mock.enqueue({ kind: 'status', status: 200, body: [] });
    const query = JSON.parse('{"__proto__": "polluted", "limit": 20}') as CustomRequest['query'];
    await client().request({ method: 'GET', path: '/v1/projects', query });
    expect(mock.requestLog()[0]?.url).toBe('https://agentchat.test/api/v1/projects?limit=20');
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)(
    'sends %s with a body and an Idempotency-Key, and retries it under that key',
    async (method) => {
      mock.enqueue(unavailable, { kind: 'status', status: 200, body: { ok: true } });
      const answer = await client().request({
        method,
        path: '/v1/projects/proj_1',
        body: { name: 'Renamed' },
      });
      expect(answer).toEqual({ ok: true });
      expect(mock.requestLog().map((request) => request.method)).toEqual([method, method]);
      const keys = mock.requestLog().map((request) => request.headers['idempotency-key']);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(mock.requestLog()[1]?.body).toEqual({ name: 'Renamed' });
    },
  );

  it('retries a POST with the same Idempotency-Key, the caller’s own when given', async () => {
    mock.enqueue(unavailable, unavailable);
    await client().request(
      { method: 'POST', path: '/v1/projects', body: createBody },
      { idempotencyKey: 'create-support-1' },
    );
    expect(mock.requestLog().map((request) => request.headers['idempotency-key'])).toEqual([
      'create-support-1',
      'create-support-1',
      'create-support-1',
    ]);
    expect(mock.projects()).toHaveLength(1);
  });

  it('stops after maxRetries with the error for the last status', async () => {
    mock.enqueue(unavailable, unavailable);
    const error = await client()
      .request({ method: 'GET', path: '/v1/projects/proj_1' }, { maxRetries: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(mock.requestLog()).toHaveLength(2);
  });

  it('asks a key function for a token on every attempt, and replays once after a 401', async () => {
    const tokens: string[] = [];
    const apiKey = async () => {
      tokens.push(tokens.length === 0 ? 'sk_expired_token' : API_KEY);
      return tokens.at(-1) as string;
    };
    mock.enqueue({ kind: 'status', status: 401 }, unavailable);
    const data = await client({ apiKey }).request({
      method: 'POST',
      path: '/v1/projects',
      body: createBody,
    });
    expect(data).toMatchObject({ name: 'Support' });
    expect(mock.requestLog().map((request) => request.headers.authorization)).toEqual([
      'Bearer sk_expired_token',
      `Bearer ${API_KEY}`,
      `Bearer ${API_KEY}`,
    ]);
    expect(
      new Set(mock.requestLog().map((request) => request.headers['idempotency-key'])).size,
    ).toBe(1);
  });

  it('fails with the error tree: a status error naming the method and path, unretried for a 404', async () => {
    const error = await client()
      .request({ method: 'GET', path: '/v1/agents/agent_1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toMatch(
      /^GET \/v1\/agents\/agent_1 failed with status 404/,
    );
    expect(mock.requestLog()).toHaveLength(1);
  });

  it('fails a 401 to a fixed key with AuthenticationError, unretried', async () => {
    mock.enqueue({ kind: 'status', status: 401 });
    await expect(
      client().request({ method: 'GET', path: '/v1/projects/proj_1' }),
    ).rejects.toBeInstanceOf(AuthenticationError);
    expect(mock.requestLog()).toHaveLength(1);
  });

  it('answers undefined for an empty 2xx body', async () => {
    mock.enqueue({ kind: 'status', status: 204 });
    await expect(
      client().request({ method: 'DELETE', path: '/v1/projects/proj_1' }),
    ).resolves.toBeUndefined();
  });

  it('refuses a 2xx body that is not JSON with ResponseValidationError', async () => {
    mock.enqueue({ kind: 'malformed', body: '<html>' });
    const error = await client()
      .request({ method: 'GET', path: '/v1/projects/proj_1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([
      { path: '', message: 'the body is not JSON' },
    ]);
  });

  it('runs the client’s and the call’s middleware around each attempt, named request', async () => {
    const seen: string[] = [];
    mock.enqueue(unavailable);
    await client({
      middleware: [
        async (request, next, context) => {
          seen.push(`${context.operation} ${request.method} attempt ${context.attempt}`);
          return next(request);
        },
      ],
    }).request(
      { method: 'POST', path: '/v1/projects', body: createBody },
      {
        middleware: [
          async (request, next) => {
            request.headers.set('x-trace-id', 'trace-1');
            return next(request);
          },
        ],
      },
    );
    expect(seen).toEqual(['request POST attempt 0', 'request POST attempt 1']);
    expect(mock.requestLog().map((request) => request.headers['x-trace-id'])).toEqual([
      'trace-1',
      'trace-1',
    ]);
  });

  it('logs each attempt with the key redacted and without the query', async () => {
    const logger = recordingLogger();
    mock.enqueue(unavailable);
    await client({ logger, logLevel: 'debug' })
      .request({
        method: 'GET',
        path: '/v1/projects',
        query: { session: 'private-query-value' },
      })
      .catch(() => undefined);
    const text = logger.lines.map((line) => line.text).join('\n');
    expect(text).toContain('GET /v1/projects → 503 (attempt 1/3');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain('private-query-value');
  });
});

describe('client.request with a schema', () => {
  it('resolves to what a zod schema gives', async () => {
    const agentchat = client();
    const { id } = await agentchat.projects.create(createBody);
    const project = await agentchat.request(
      { method: 'GET', path: path`/v1/projects/${id}` },
      { schema: z.object({ id: z.string(), agentId: z.string() }) },
    );
    // zod's object strips what the schema does not name.
    expect(project).toEqual({ id, agentId: 'agent_1' });
  });

  it('resolves to what a valibot schema gives, transforms included', async () => {
    const { id } = await client().projects.create(createBody);
    const name = await client().request(
      { method: 'GET', path: path`/v1/projects/${id}` },
      {
        schema: v.pipe(
          v.object({ name: v.string() }),
          v.transform((project) => project.name),
        ),
      },
    );
    expect(name).toBe('Support');
  });

  it('refuses a body that fails a zod/mini schema, each issue in words, unretried', async () => {
    mock.enqueue({ kind: 'status', status: 200, body: { id: 42 } });
    const error = await client()
      .request({ method: 'GET', path: '/v1/things/1' }, { schema: z.object({ id: z.string() }) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({
      status: 200,
      body: { id: 42 },
      issues: [{ path: 'id', message: 'expected a string, received number' }],
    });
    expect(mock.requestLog()).toHaveLength(1);
  });

  it('refuses a body that fails another library’s schema with that library’s issues', async () => {
    mock.enqueue({ kind: 'status', status: 200, body: { items: [{ id: 'a' }, { id: 7 }] } });
    const schema = v.object({ items: v.array(v.object({ id: v.string('id must be text') })) });
    const error = await client()
      .request({ method: 'GET', path: '/v1/things' }, { schema })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([
      { path: 'items.1.id', message: 'id must be text' },
    ]);
  });

  it('refuses an empty body for a schema that wants one', async () => {
    mock.enqueue({ kind: 'status', status: 204 });
    const error = await client()
      .request({ method: 'DELETE', path: '/v1/things/1' }, { schema: z.object({}) })
      .catch((caught: unknown) => caught);
    expect((error as ResponseValidationError).issues).toEqual([
      { path: '', message: 'the body is empty' },
    ]);
  });

  it('refuses a schema that is not a Standard Schema before sending', async () => {
    const error = await client()
      .request({ method: 'GET', path: '/v1/things' }, { schema: { parse: () => 1 } as never })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      {
        path: 'schema',
        message: 'expected a Standard Schema, such as one of zod, valibot or arktype',
      },
    ]);
    expect(mock.requestLog()).toHaveLength(0);
  });
});

describe('client.request refuses, before sending', () => {
  /** The issues a request is refused with; fails the test if it is sent. */
  async function refusal(request: unknown, options?: unknown) {
    const call = client().request(request as CustomRequest, options as never);
    const error = await call.catch((caught: unknown) => caught);
    expect(mock.requestLog()).toHaveLength(0);
    expect(error).toBeInstanceOf(RequestValidationError);
    return (error as RequestValidationError).issues;
  }

  const pathMessage =
    'expected a path below baseUrl such as /v1/projects: segments of URL path characters, ' +
    'none empty, "." or ".." (build it with the path tag; put a query in query)';

  it.each([
    'https://elsewhere.test/v1/projects',
    '//elsewhere.test/v1/projects',
    'v1/projects',
    '',
    '/v1/../../admin',
    '/v1/./projects',
    '/v1/%2e%2E/admin',
    '/v1/.%2e',
    '/..',
    '/v1//projects',
    '/v1\\..\\admin',
    '/v1/projects?limit=1',
    '/v1/projects#top',
    '/v1/pro jects',
    '/v1/.\t./admin',
    '/v1/.\n./admin',
    '/v1/projets/é',
    '/v1/projects/%zz',
    path`/v1/projects/${'..'}`,
    path`/v1/projects/${'\uD800'}`,
  ])('the path %j', async (badPath) => {
    expect(await refusal({ method: 'GET', path: badPath })).toEqual([
      { path: 'path', message: pathMessage },
    ]);
  });

  it('a path that is not a string, a method it does not know, and a misspelt field', async () => {
    expect(await refusal({ method: 'get', path: 42, bdy: {} })).toEqual([
      { path: 'method', message: "expected 'GET', 'POST', 'PUT', 'PATCH' or 'DELETE'" },
      { path: 'path', message: pathMessage },
      { path: 'bdy', message: 'is not a known field; did you mean body?' },
    ]);
  });

  it('a body that is not a plain JSON object, and a GET with a body', async () => {
    expect(
      await refusal({
        method: 'POST',
        path: '/v1/things',
        body: { when: new Date(0), n: [1, Number.NaN] },
      }),
    ).toEqual([{ path: 'body.when', message: 'expected a JSON value, received Date instance' }]);
    expect(await refusal({ method: 'POST', path: '/v1/things', body: [1, 2] })).toEqual([
      { path: 'body', message: 'expected a plain JSON object, received an array' },
    ]);
    expect(await refusal({ method: 'GET', path: '/v1/things', body: {} })).toEqual([
      { path: 'body', message: 'a GET request has no body' },
    ]);
  });

  it('query values that are not strings, finite numbers, booleans or arrays of them', async () => {
    const message = 'expected a string, a finite number, a boolean or an array of them';
    expect(
      await refusal({
        method: 'GET',
        path: '/v1/things',
        query: { limit: Number.POSITIVE_INFINITY, tags: ['a', null], half: '\uDC00', ok: 'yes' },
      }),
    ).toEqual([
      { path: 'query.limit', message },
      { path: 'query.tags', message },
      { path: 'query.half', message },
    ]);
    expect(await refusal({ method: 'GET', path: '/v1/things', query: 'limit=1' })).toEqual([
      { path: 'query', message: 'expected a record, received string' },
    ]);
    expect(await refusal({ method: 'GET', path: '/v1/things', query: ['limit'] })).toEqual([
      { path: 'query', message: 'expected a record, received an array' },
    ]);
    const tag = Symbol('tag');
    expect(await refusal({ method: 'GET', path: '/v1/things', query: { [tag]: 'a' } })).toEqual([
      { path: 'query.Symbol(tag)', message: 'is not a valid key' },
    ]);
  });

  it('a request that is not an object, and options it does not know', async () => {
    expect(await refusal(null)).toEqual([
      { path: '', message: 'expected an object, received null' },
    ]);
    expect(await refusal({ method: 'GET', path: '/v1/things' }, { extraBody: { a: 1 } })).toEqual([
      { path: 'extraBody', message: 'is not a known field' },
    ]);
  });

  it('by rejecting the promise, never by throwing', () => {
    const call = client().request({ method: 'GET', path: '/../x' });
    expect(call).toBeInstanceOf(Promise);
    return expect(call).rejects.toBeInstanceOf(AgentChatError);
  });
});
