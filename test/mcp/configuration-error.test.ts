/**
 * Every refusal of agentchat/mcp before anything runs is a ConfigurationError, which is still an
 * AgentChatError: the options of createMcpServer and createMcpHttpHandler, and the command line
 * and environment the agentchat-mcp bin starts with. A failure while serving stays what it was.
 */
import { describe, expect, it } from 'vitest';
import { AgentChatError, Client, ConfigurationError } from '../../src/index.js';
import { parseBinArguments } from '../../src/mcp/arguments.js';
import {
  baseUrlFromEnv,
  clientOptionsFromEnv,
  introspectionFromEnv,
} from '../../src/mcp/config.js';
import { serveOnHttp } from '../../src/mcp/http.js';
import { createMcpHttpHandler, createMcpServer } from '../../src/mcp/index.js';

const client = () => new Client({ apiKey: 'sk_test', baseUrl: 'https://host/api' });
const issuer = 'https://login.example.com';
const resource = 'https://mcp.example.com/mcp';

/** The error `make` throws; fails the test when it throws none or another kind. */
function refusal(make: () => unknown): ConfigurationError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(AgentChatError);
    return error as ConfigurationError;
  }
  throw new Error('expected a ConfigurationError');
}

describe('createMcpServer', () => {
  it.each([
    ['no client', () => createMcpServer({} as never), /needs \{ client \}/],
    [
      'an unknown tool',
      () => createMcpServer({ client: client(), tools: ['get_projects' as never] }),
      /did you mean get_project\?/,
    ],
    [
      'an empty tool list',
      () => createMcpServer({ client: client(), tools: [] }),
      /one or more of/,
    ],
    [
      'a tool that changes something in a read-only scope',
      () =>
        createMcpServer({ client: client(), readOnly: true, tools: ['create_project'] as never }),
      /A read-only server cannot offer create_project/,
    ],
  ])('refuses %s with a ConfigurationError', (_, make, message) => {
    expect(refusal(make).message).toMatch(message);
  });
});

describe('createMcpHttpHandler', () => {
  it.each([
    [
      'a misspelt option',
      () => createMcpHttpHandler({ readonly: true } as never),
      /unknown option "readonly"; did you mean readOnly\?/,
    ],
    [
      'client with clientOptions',
      () => createMcpHttpHandler({ client: client(), clientOptions: {} } as never),
      /client \(a key of its own\) or clientOptions \(pass-through\), not both/,
    ],
    [
      'a client of another kind',
      () => createMcpHttpHandler({ client: { projects: {} } as never }),
      /client must be a Client/,
    ],
    [
      'a tool that changes something in a read-only scope',
      () => createMcpHttpHandler({ readOnly: true, tools: ['send_message'] as never }),
      /cannot offer send_message/,
    ],
    [
      'an origin that is not one',
      () => createMcpHttpHandler({ allowedOrigins: ['https://'] }),
      /Invalid allowed origin/,
    ],
    [
      'authorizationServer without client',
      () => createMcpHttpHandler({ authorizationServer: issuer, resource }),
      /needs client/,
    ],
    [
      'resource without authorizationServer',
      () => createMcpHttpHandler({ client: client(), resource }),
      /add authorizationServer/,
    ],
    [
      'authorizationServer without resource',
      () => createMcpHttpHandler({ client: client(), authorizationServer: issuer }),
      /needs resource/,
    ],
    [
      'an issuer that is not https',
      () =>
        createMcpHttpHandler({
          client: client(),
          authorizationServer: 'http://a.example',
          resource,
        }),
      /Invalid authorizationServer/,
    ],
    [
      'a resource with a fragment',
      () =>
        createMcpHttpHandler({
          client: client(),
          authorizationServer: issuer,
          resource: `${resource}#part`,
        }),
      /no query or fragment/,
    ],
    [
      'an empty audience',
      () =>
        createMcpHttpHandler({
          client: client(),
          authorizationServer: issuer,
          resource,
          audience: '',
        }),
      /audience must be a non-empty string/,
    ],
    [
      'introspection without a secret',
      () =>
        createMcpHttpHandler({
          client: client(),
          authorizationServer: issuer,
          resource,
          introspection: { clientId: 'introspector' } as never,
        }),
      /introspection needs \{ clientId, clientSecret \}/,
    ],
  ])('refuses %s with a ConfigurationError', (_, make, message) => {
    expect(refusal(make).message).toMatch(message);
  });
});

describe('the agentchat-mcp bin', () => {
  it.each([
    ['an unknown option', () => parseBinArguments(['--read-onyl']), /--read-onyl/],
    ['a bad port', () => parseBinArguments(['--http', '--port', 'x']), /is not a port/],
    ['an HTTP option without --http', () => parseBinArguments(['--port', '1']), /add --http/],
    ['a missing base URL', () => baseUrlFromEnv({}), /AGENTCHAT_BASE_URL is not set/],
    [
      'missing credentials',
      () => clientOptionsFromEnv({ AGENTCHAT_BASE_URL: 'https://host/api' }),
      /No credentials/,
    ],
    [
      'a token URL clientCredentials refuses',
      () =>
        clientOptionsFromEnv({
          AGENTCHAT_BASE_URL: 'https://host/api',
          AGENTCHAT_CLIENT_ID: 'id',
          AGENTCHAT_CLIENT_SECRET: 'secret',
          AGENTCHAT_TOKEN_URL: 'not a url',
        }),
      /AGENTCHAT|token/i,
    ],
    [
      'introspection without its client',
      () => introspectionFromEnv({}),
      /AGENTCHAT_INTROSPECTION_CLIENT_ID and AGENTCHAT_INTROSPECTION_CLIENT_SECRET are not set/,
    ],
  ])('refuses %s with a ConfigurationError', (_, make, message) => {
    expect(refusal(make).message).toMatch(message);
  });

  it("refuses a remote host with the server's own key, before listening", async () => {
    const args = parseBinArguments(['--http', '--host', '0.0.0.0', '--port', '0']);
    const env = { AGENTCHAT_BASE_URL: 'https://host/api', AGENTCHAT_API_KEY: 'sk_test' };
    const error = await serveOnHttp(args, env, console).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(AgentChatError);
    expect((error as Error).message).toMatch(/add --allow-remote/);
  });
});
