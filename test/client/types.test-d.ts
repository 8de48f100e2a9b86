import { describe, expectTypeOf, it } from 'vitest';
import {
  type APIError,
  type APIPromise,
  type ApiKeyContext,
  type ApiKeyFunction,
  type AuthenticationError,
  type BadRequestError,
  type ChatReply,
  Client,
  type ClientCredentialsOptions,
  type ConfigurationError,
  type ConflictError,
  type CreatedProject,
  clientCredentials,
  type ErrorJSON,
  type InternalServerError,
  type Middleware,
  type MiddlewareContext,
  NotFoundError,
  type OAuthError,
  type PermissionDeniedError,
  type Project,
  type ProjectStatus,
  type RateLimitError,
  type TokenCache,
  type UnprocessableEntityError,
  type WithResponse,
} from '../../src/index.js';

const client = new Client({ apiKey: 'k', baseUrl: 'https://host/api' });

describe('types', () => {
  it('types each result precisely', () => {
    expectTypeOf(client.projects.create({ name: 'n', agentId: 'a' })).toEqualTypeOf<
      APIPromise<CreatedProject>
    >();
    expectTypeOf(client.projects.get('proj_1')).resolves.toEqualTypeOf<Project>();
    expectTypeOf(
      client.chat.send({ projectId: 'p', message: 'm' }),
    ).resolves.toEqualTypeOf<ChatReply>();
    expectTypeOf<ChatReply['suggestions']>().toEqualTypeOf<unknown[]>();
    expectTypeOf<Project['metadata']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf(client.projects.get('p').withResponse()).resolves.toEqualTypeOf<
      WithResponse<Project>
    >();
  });

  it('keeps status open to new values while suggesting active', () => {
    expectTypeOf<'active'>().toExtend<ProjectStatus>();
    expectTypeOf<'archived'>().toExtend<ProjectStatus>();
    expectTypeOf<CreatedProject['status']>().toEqualTypeOf<ProjectStatus>();
  });

  it('leaves create responses without agentId or metadata', () => {
    expectTypeOf<CreatedProject>().not.toHaveProperty('agentId');
    expectTypeOf<CreatedProject>().not.toHaveProperty('metadata');
  });

  it('types error fields', () => {
    expectTypeOf<RateLimitError['retryAfter']>().toEqualTypeOf<number | undefined>();
    // Each status class carries its literal status, as openai-node's do; APIError stays general.
    expectTypeOf<RateLimitError['status']>().toEqualTypeOf<429>();
    expectTypeOf<NotFoundError['status']>().toEqualTypeOf<404>();
    expectTypeOf<BadRequestError['status']>().toEqualTypeOf<400>();
    expectTypeOf<AuthenticationError['status']>().toEqualTypeOf<401>();
    expectTypeOf<PermissionDeniedError['status']>().toEqualTypeOf<403>();
    expectTypeOf<ConflictError['status']>().toEqualTypeOf<409>();
    expectTypeOf<UnprocessableEntityError['status']>().toEqualTypeOf<422>();
    expectTypeOf<InternalServerError['status']>().toEqualTypeOf<number>();
    expectTypeOf<APIError['status']>().toEqualTypeOf<number>();
    // Narrowing by instanceof gives the literal.
    const narrow = (error: unknown) => (error instanceof NotFoundError ? error.status : undefined);
    expectTypeOf(narrow).returns.toEqualTypeOf<404 | undefined>();
  });

  it('types toJSON() by the error class, and offers the classes on Client', () => {
    const notFound = {} as NotFoundError;
    expectTypeOf(notFound.toJSON().status).toEqualTypeOf<404>();
    expectTypeOf(notFound.toJSON().requestId).toEqualTypeOf<string | undefined>();
    expectTypeOf(notFound.toJSON().name).toEqualTypeOf<string>();
    expectTypeOf(notFound.toJSON()).toEqualTypeOf<ErrorJSON<NotFoundError>>();
    // Neither methods nor the headers are in it.
    expectTypeOf(notFound.toJSON()).not.toHaveProperty('headers');
    expectTypeOf(notFound.toJSON()).not.toHaveProperty('toJSON');
    expectTypeOf<ReturnType<RateLimitError['toJSON']>['retryAfter']>().toEqualTypeOf<
      number | undefined
    >();
    expectTypeOf(Client.NotFoundError).toEqualTypeOf<typeof NotFoundError>();
    expectTypeOf(Client.ConfigurationError).toEqualTypeOf<typeof ConfigurationError>();
    // @ts-expect-error OAuthError is not on Client: it would weigh on every app without OAuth
    void Client.OAuthError;
  });

  it('offers the raw response, unread, through asResponse()', () => {
    expectTypeOf(client.projects.get('p').asResponse()).resolves.toEqualTypeOf<Response>();
    expectTypeOf(
      client.chat.send({ projectId: 'p', message: 'm' }).asResponse(),
    ).resolves.toEqualTypeOf<Response>();
  });

  it('refuses wrong calls at compile time', () => {
    // @ts-expect-error agentId is required
    void client.projects.create({ name: 'n' });
    // @ts-expect-error name must be a string
    void client.projects.create({ name: 1, agentId: 'a' });
    // @ts-expect-error unknown fields are refused
    void client.projects.create({ name: 'n', agentId: 'a', agent: 'x' });
    // @ts-expect-error get takes the id, not an object
    void client.projects.get({ id: 'proj_1' });
    // @ts-expect-error chat needs the project id
    void client.chat.send({ message: 'hi' });
    // @ts-expect-error timeout is a number of ms
    void client.projects.get('p', { timeout: '5s' });
    // @ts-expect-error apiKey must be a string or a function
    new Client({ apiKey: 42 });
    // @ts-expect-error logLevel is one of the named levels
    new Client({ logLevel: 'verbose' });
  });

  it('types middleware, its context and withOptions', () => {
    expectTypeOf<Parameters<Middleware>>().toEqualTypeOf<
      [Request, (request: Request) => Promise<Response>, MiddlewareContext]
    >();
    expectTypeOf<ReturnType<Middleware>>().toEqualTypeOf<Promise<Response>>();
    expectTypeOf<MiddlewareContext['attempt']>().toEqualTypeOf<number>();
    expectTypeOf<MiddlewareContext['idempotencyKey']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(client.withOptions({ timeout: 1 })).toEqualTypeOf<Client>();
    expectTypeOf(client.maxRetries).toEqualTypeOf<number>();
    expectTypeOf(client.timeout).toEqualTypeOf<number>();
    // @ts-expect-error a middleware must return a Promise of a Response
    const bad: Middleware = (request) => request;
    void bad;
    // @ts-expect-error the resolved settings are read-only
    client.maxRetries = 3;
  });

  it('types token functions and client credentials', () => {
    const provider = clientCredentials({
      tokenUrl: 'https://a/t',
      clientId: 'i',
      clientSecret: 's',
    });
    expectTypeOf(provider).toEqualTypeOf<ApiKeyFunction>();
    expectTypeOf<Parameters<ApiKeyFunction>[0]>().toEqualTypeOf<ApiKeyContext>();
    expectTypeOf<ApiKeyContext['rejected']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ClientCredentialsOptions['authMethod']>().toEqualTypeOf<
      'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | undefined
    >();
    expectTypeOf<ClientCredentialsOptions['resource']>().toEqualTypeOf<
      string | readonly string[] | undefined
    >();
    expectTypeOf<OAuthError['error']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<OAuthError['status']>().toEqualTypeOf<number>();
    // A plain function that ignores the context is a valid apiKey.
    new Client({ apiKey: () => 'token', baseUrl: 'https://host/api' });
    new Client({ apiKey: provider, baseUrl: 'https://host/api' });
    // @ts-expect-error authMethod is one of the RFC 6749 and RFC 7523 methods
    clientCredentials({ tokenUrl: 'u', clientId: 'i', clientSecret: 's', authMethod: 'jwt' });
    // The client id may come from AGENTCHAT_CLIENT_ID (test/oauth/environment.test-d.ts).
    clientCredentials({ tokenUrl: 'u', clientSecret: 's' });
    // @ts-expect-error an assertion callback answers a string
    clientCredentials({ issuer: 'u', clientId: 'i', clientAssertion: () => 42 });
  });

  it("takes the DOM's and Node's key types as private keys, without naming them itself", () => {
    const signing = { issuer: 'https://a', clientId: 'i', authMethod: 'private_key_jwt' } as const;
    const jwk: JsonWebKey = { kty: 'EC', crv: 'P-256', d: 'd', x: 'x', y: 'y' };
    const parsed: unknown = JSON.parse('{}');
    clientCredentials({ ...signing, privateKey: jwk });
    clientCredentials({ ...signing, privateKey: parsed as CryptoKey });
    clientCredentials({
      ...signing,
      privateKey: parsed as import('node:crypto').webcrypto.CryptoKey,
    });
    clientCredentials({ ...signing, privateKey: '-----BEGIN PRIVATE KEY-----' });
    // @ts-expect-error a key is a PEM string, a JWK or a CryptoKey, not a number
    clientCredentials({ ...signing, privateKey: 42 });
    // @ts-expect-error nor an object sharing nothing with a JWK
    clientCredentials({ ...signing, privateKey: { pem: 'x' } });
  });

  it('types the shared token cache: sync or async, lease optional', () => {
    const options = { tokenUrl: 'https://a/t', clientId: 'i', clientSecret: 's' };
    const stored = new Map<string, string>();
    const sync: TokenCache = {
      get: (key) => stored.get(key),
      set: (key, value) => stored.set(key, value),
    };
    const async: TokenCache = {
      get: async () => null,
      set: async () => 'OK',
      lease: async () => true,
    };
    clientCredentials({ ...options, cache: sync });
    clientCredentials({ ...options, cache: async });
    expectTypeOf<ApiKeyContext['warn']>().toEqualTypeOf<((message: string) => void) | undefined>();
    // @ts-expect-error get must answer a string, or nothing
    clientCredentials({ ...options, cache: { get: () => 1, set: () => {} } });
    // @ts-expect-error lease answers whether it was taken
    clientCredentials({ ...options, cache: { get: () => null, set: () => {}, lease: () => 'OK' } });
    // @ts-expect-error set is required
    clientCredentials({ ...options, cache: { get: () => null } });
  });
});
