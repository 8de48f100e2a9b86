import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';
import {
  AgentChatError,
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  isAgentChatError,
  isAPIError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();
const noRetry = { maxRetries: 0 };

describe('API errors', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [418, APIError],
  ])('maps %i to %o', async (status, ErrorClass) => {
    mock.enqueue({ kind: 'status', status });
    const error = await client()
      .projects.create({ name: 'P', agentId: 'a' }, noRetry)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(AgentChatError);
    expect(error).toMatchObject({
      status,
      name: ErrorClass.errorName,
      requestId: expect.stringMatching(/^req_/),
    });
  });

  it('says method, path, status and the server message, and keeps type and body', async () => {
    const error = await client()
      .projects.get('proj_missing')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const notFound = error as NotFoundError;
    expect(notFound.message).toMatch(
      /^GET \/v1\/projects\/proj_missing failed with status 404: .+ \(request id req_\w+\)$/,
    );
    expect(notFound.type).toBe('not_found_error');
    expect(notFound.body).toMatchObject({ error: { type: 'not_found_error' } });
    expect(notFound.headers.get('x-request-id')).toBe(notFound.requestId);
  });

  it('handles an HTML error page', async () => {
    mock.enqueue({
      kind: 'status',
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
    });
    const error = await client()
      .projects.get('proj_1', noRetry)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as APIError).message).toContain('failed with status 502: 502 Bad Gateway');
    expect((error as APIError).body).toBe('<html><body><h1>502 Bad Gateway</h1></body></html>');
  });

  it('handles an empty and a plain-text error body', async () => {
    mock.enqueue(
      { kind: 'status', status: 500, body: '' },
      { kind: 'status', status: 500, body: 'upstream down' },
    );
    const empty = (await client()
      .projects.get('p', noRetry)
      .catch((e: unknown) => e)) as APIError;
    expect(empty.message).toMatch(/^GET \/v1\/projects\/p failed with status 500 \(request id/);
    expect(empty.body).toBeUndefined();
    const text = (await client()
      .projects.get('p', noRetry)
      .catch((e: unknown) => e)) as APIError;
    expect(text.message).toContain('500: upstream down');
  });

  it('carries retryAfter on a RateLimitError', async () => {
    mock.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '7' } });
    const error = await client()
      .projects.get('p', noRetry)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(7000);
  });
});

describe('response validation', () => {
  it('rejects a 2xx body that is not JSON', async () => {
    mock.enqueue({ kind: 'malformed', status: 201, body: '{"id":' });
    const error = await client()
      .projects.create({ name: 'P', agentId: 'a' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({
      status: 201,
      body: '{"id":',
      requestId: expect.stringMatching(/^req_/),
    });
    expect((error as Error).message).toContain('the body is not JSON');
    expect(mock.requestLog()).toHaveLength(1); // a bad body is not retried
  });

  it('names each field of a 2xx body that breaks the schema', async () => {
    mock.enqueue({
      kind: 'malformed',
      body: JSON.stringify({ id: 'proj_1', name: 7, status: 'active' }),
    });
    const error = (await client()
      .projects.create({ name: 'P', agentId: 'a' })
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues).toEqual([
      { path: 'name', message: 'expected a string, received number' },
      { path: 'createdAt', message: 'is required (expected a string)' },
    ]);
    expect(error.message).toMatch(
      /^POST \/v1\/projects answered 200 with an unexpected body: name: .+; createdAt: /,
    );
  });
});

describe('connection errors', () => {
  it('wraps a dropped connection in APIConnectionError with its cause', async () => {
    mock.enqueue({ kind: 'network-error' });
    const error = await client()
      .projects.get('p', noRetry)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/^GET \/v1\/projects\/p could not reach the service/);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});

describe('error guards', () => {
  it('recognise errors by brand, not by prototype', async () => {
    const error = await client()
      .projects.get('missing')
      .catch((e: unknown) => e);
    expect(isAgentChatError(error)).toBe(true);
    expect(isAPIError(error)).toBe(true);
    expect(isAgentChatError(new Error('x'))).toBe(false);
    // An object carrying the brand of another copy of the package is recognised.
    const foreign = Object.create(null);
    foreign[Symbol.for('agentchat.error.kinds')] = ['NotFoundError', 'APIError', 'AgentChatError'];
    expect(foreign instanceof NotFoundError).toBe(true);
    expect(foreign instanceof RateLimitError).toBe(false);
  });

  it('give every exported error class a brand of its own, checked by instanceof', () => {
    const errorClasses = Object.entries(sdk).filter(
      (entry): entry is [string, typeof AgentChatError] =>
        typeof entry[1] === 'function' && entry[1].prototype instanceof Error,
    );
    expect(errorClasses.length).toBeGreaterThanOrEqual(15);
    for (const [name, ErrorClass] of errorClasses) {
      // Its own name, not one inherited from its parent: otherwise a parent would pass for it.
      expect(Object.hasOwn(ErrorClass, 'errorName'), name).toBe(true);
      expect((ErrorClass as unknown as { errorName: string }).errorName).toBe(name);
      // An object branded with only the parent's kinds is not an instance of the class.
      const parent = Object.getPrototypeOf(ErrorClass) as { errorName?: string };
      if (parent.errorName) {
        const parentOnly = { [Symbol.for('agentchat.error.kinds')]: [parent.errorName] };
        expect(parentOnly instanceof ErrorClass, name).toBe(false);
      }
      const branded = { [Symbol.for('agentchat.error.kinds')]: [name] };
      expect(branded instanceof ErrorClass, name).toBe(true);
    }
  });

  it('are static members of Client too, every one but OAuthError, as openai-node users expect', () => {
    const errorClasses = Object.entries(sdk).filter(
      ([, value]) => typeof value === 'function' && value.prototype instanceof Error,
    );
    const statics = Object.fromEntries(
      errorClasses.map(([name]) => [
        name,
        (sdk.Client as unknown as Record<string, unknown>)[name],
      ]),
    );
    const { OAuthError, ...expected } = Object.fromEntries(errorClasses);
    expect(OAuthError).toBeTypeOf('function');
    expect(statics).toEqual({ ...expected, OAuthError: undefined });
    expect(sdk.Client.NotFoundError).toBe(NotFoundError);
    expect(sdk.Client.ConfigurationError).toBe(sdk.ConfigurationError);
  });

  it('hold each documented field as an own property, in the documented order, set or not', () => {
    const site = { method: 'GET', path: '/v1/projects/p' };
    const details = { status: 418, headers: new Headers(), body: { error: { type: 't' } } };
    const apiFields = ['status', 'headers', 'requestId', 'body', 'type', 'code'];
    const cases: [AgentChatError, string[]][] = [
      [new APIError(site, details), apiFields],
      [
        new RateLimitError(site, { ...details, status: 429 }, undefined),
        [...apiFields, 'retryAfter'],
      ],
      [new sdk.RedirectError(site, { ...details, status: 302 }), [...apiFields, 'location']],
      [new APIConnectionError(site, new Error('reset'), 2), ['attempts']],
      [new sdk.APITimeoutError(site, 5, 3), ['attempts']],
      [
        new sdk.ResponseTooLargeError(site, { status: 200, requestId: undefined }, 10),
        ['limit', 'status', 'requestId'],
      ],
      [new sdk.RequestValidationError('chat.send params', []), ['issues']],
      [
        new ResponseValidationError(site, { status: 200, requestId: 'r', body: 'x' }, []),
        ['issues', 'status', 'requestId', 'body'],
      ],
    ];
    for (const [error, fields] of cases) {
      expect(Object.keys(error), error.name).toEqual(['name', ...fields]);
      expect(Object.keys(error.toJSON()), error.name).toEqual([
        'name',
        'message',
        ...fields.filter((field) => field !== 'headers'),
      ]);
    }
  });

  it('serialise to JSON without headers', async () => {
    const error = await client()
      .projects.get('missing')
      .catch((e: unknown) => e);
    const json = JSON.parse(JSON.stringify(error));
    expect(json).toMatchObject({ name: 'NotFoundError', status: 404, type: 'not_found_error' });
    expect(json).not.toHaveProperty('headers');
  });
});
