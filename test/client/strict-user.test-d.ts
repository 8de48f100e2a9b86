/**
 * A strict user's file: the package as its users import it (`agentchat`, `agentchat/testing`,
 * `agentchat/mcp`), under the strictest options (tsconfig.json: `strict`,
 * `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`). Every common mistake sits under
 * `@ts-expect-error`, so that a type grown too loose (an `any`, a missing literal) fails
 * `npm run typecheck`; every standard input a user hands over is a plain line, so that a type grown
 * too strict fails it too. The runtime behaviour of each line is tested beside its feature.
 */
import {
  type AgentChatError,
  APIError,
  Client,
  ConfigurationError,
  clientCredentials,
  type ErrorJSON,
  type Middleware,
  type NotFoundError,
  type ProjectCreateParams,
} from 'agentchat';
import { createMcpHttpHandler, createMcpServer } from 'agentchat/mcp';
import { createMockService } from 'agentchat/testing';
import { describe, expectTypeOf, it } from 'vitest';

const client = new Client({ apiKey: 'sk_test', baseUrl: 'https://host/api' });

describe('a strict user file', () => {
  it('refuses the common mistakes at compile time', () => {
    // @ts-expect-error 1. a misspelt client option
    new Client({ maxRetry: 3 });
    // @ts-expect-error 2. the API key is a string or a function
    new Client({ apiKey: 42 });
    // @ts-expect-error 3. logLevel is one of the named levels
    new Client({ logLevel: 'verbose' });
    // @ts-expect-error 4. timeout is a number of ms
    void client.projects.get('p', { timeout: '5s' });
    // @ts-expect-error 5. agentId is required
    void client.projects.create({ name: 'n' });
    // @ts-expect-error 6. a project's name is a string
    void client.projects.create({ name: 1, agentId: 'a' });
    // @ts-expect-error 7. an unknown field in the params
    void client.projects.create({ name: 'n', agentId: 'a', agent: 'x' });
    // @ts-expect-error 8. get takes the id, not an object
    void client.projects.get({ id: 'proj_1' });
    // @ts-expect-error 9. chat needs the project id
    void client.chat.send({ message: 'hi' });
    // @ts-expect-error 10. the resolved settings are read-only
    client.maxRetries = 3;
    // @ts-expect-error 11. a middleware returns a Promise of a Response
    const wrong: Middleware = (request) => request;
    void wrong;
    // @ts-expect-error 12. the method is one of the five, in capitals
    void client.request({ method: 'get', path: '/v1/x' });
    // @ts-expect-error 13. a body is a JSON object
    void client.request({ method: 'POST', path: '/v1/x', body: 'text' });
    // @ts-expect-error 14. the name is set through the params, not extraBody
    void client.projects.create({ name: 'n', agentId: 'a' }, { extraBody: { name: 'x' } });
    // @ts-expect-error 15. a header value is a string
    void client.projects.get('p', { headers: { 'x-n': 1 } });
    // @ts-expect-error 16. authMethod is one of the RFC 6749 and RFC 7523 methods
    clientCredentials({ tokenUrl: 'u', clientId: 'i', clientSecret: 's', authMethod: 'jwt' });
    // @ts-expect-error 17. the mock takes a list of origins
    createMockService({ allowedOrigins: 'http://localhost:5173' });
    // @ts-expect-error 18. the mock's request log is read with a method
    const log: readonly unknown[] = createMockService().requestLog;
    void log;

    // The three the runtime alone refused before:
    // @ts-expect-error 19. a GET request has no body
    void client.request({ method: 'GET', path: '/v1/x', body: { a: 1 } });
    // @ts-expect-error 20. a handler is given a client or the options to make one, not both
    createMcpHttpHandler({ client, clientOptions: { baseUrl: 'https://host/api' } });
    // @ts-expect-error 21. a read-only server serves no tool that changes something
    createMcpServer({ client, readOnly: true, tools: ['create_project'] });
  });

  it('takes the standard inputs users hand over', () => {
    // Headers in every form fetch takes, with null to leave one of the client's out of a call.
    new Client({ headers: new Headers({ 'x-team': 'support' }) });
    void client.projects.get('p', { headers: new Headers({ 'x-trace': 'abc' }) });
    void client.projects.get('p', { headers: [['x-trace', 'abc']] });
    void client.projects.get('p', { headers: { 'x-trace': 'abc', 'x-team': null } });
    void client.projects.get('p', { headers: { 'x-team': undefined } });
    const init: HeadersInit = { 'x-trace': 'abc' };
    void client.projects.get('p', { headers: init });
    // What frameworks hand out for "no signal".
    const signal: AbortSignal | null = null;
    void client.projects.get('p', { signal });
    // Metadata typed by an interface of the user's own.
    interface LaunchMetadata {
      team: string;
      tier: number;
    }
    const metadata: LaunchMetadata = { team: 'support', tier: 2 };
    void client.projects.create({ name: 'n', agentId: 'a', metadata });
    const params: ProjectCreateParams = { name: 'n', agentId: 'a', metadata };
    void params;
    // The settings clientCredentials reads from the environment may be left out.
    new Client({ apiKey: clientCredentials(), baseUrl: 'https://host/api' });
    // The mock's vocabulary, as the MCP server's.
    const mock = createMockService({
      allowedOrigins: ['http://localhost:5173'],
      tokenLifetimeMs: 60_000,
    });
    expectTypeOf(mock.requestLog()).toBeArray();
    createMcpServer({ client, readOnly: true, tools: ['get_project'] });
    createMcpHttpHandler({ clientOptions: { baseUrl: 'https://host/api' } });
  });

  it('gives precise errors and raw responses', async () => {
    expectTypeOf(client.projects.get('p').asResponse()).resolves.toEqualTypeOf<Response>();
    try {
      await client.projects.get('p');
    } catch (error) {
      if (error instanceof Client.NotFoundError) {
        expectTypeOf(error.status).toEqualTypeOf<404>();
        expectTypeOf(error.toJSON()).toEqualTypeOf<ErrorJSON<NotFoundError>>();
        // @ts-expect-error 22. a NotFoundError's status is 404, never 500
        if (error.status === 500) throw error;
      } else if (error instanceof ConfigurationError) {
        expectTypeOf(error).toExtend<AgentChatError>();
      } else if (error instanceof APIError) {
        expectTypeOf(error.status).toEqualTypeOf<number>();
      }
    }
  });
});
