/**
 * `appInfo` at the identity provider, over a real server on 127.0.0.1: the token endpoint's and
 * discovery's requests name the application in their `User-Agent`, as the service's do, and carry
 * no other header of the SDK's (no `X-AgentChat-*`, none of the client's `headers`).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiKeyFunction,
  Client,
  clientCredentials,
  workloadIdentity,
} from '../../src/index.js';
import { VERSION } from '../../src/version.js';
import {
  freshToken,
  identityToken,
  issuedToken,
  type RecordedRequest,
  startTokenServer,
  type TokenServer,
} from './token-server.js';

const appInfo = { name: 'support-desk', version: '4.1.0', url: 'https://example.com/desk' };
const named = `agentchat-js/${VERSION} support-desk/4.1.0 (https://example.com/desk)`;

let server: TokenServer;
beforeAll(async () => {
  server = await startTokenServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

const providers: Record<string, (issuer: string) => ApiKeyFunction> = {
  clientCredentials: (issuer) =>
    clientCredentials({ issuer, clientId: 'desk', clientSecret: freshToken('secret') }),
  'workloadIdentity, jwt-bearer': (issuer) => {
    const token = identityToken();
    return workloadIdentity({ issuer, clientId: 'desk', identityToken: () => token });
  },
  'workloadIdentity, token exchange': (issuer) => {
    const token = identityToken();
    return workloadIdentity({ issuer, grant: 'token-exchange', identityToken: () => token });
  },
};

const toIdentityProvider = ({ path }: RecordedRequest) => !path.startsWith('/api/');

describe.each(Object.entries(providers))('%s', (_name, provider) => {
  it("sends the client's appInfo in the User-Agent of discovery and token requests, and no header of ours besides", async () => {
    server.answer((token) =>
      issuedToken(token, { issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' }),
    );
    const client = new Client({
      baseUrl: server.baseUrl,
      apiKey: provider(server.issuer),
      appInfo,
      headers: { 'x-team': 'search' },
    });
    await client.projects.get('proj_1');

    const atProvider = server.requests.filter(toIdentityProvider);
    expect(atProvider.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /.well-known/oauth-authorization-server',
      'POST /token',
    ]);
    for (const { headers } of atProvider) {
      expect(headers['user-agent']).toBe(named);
      expect(Object.keys(headers).filter((name) => name.startsWith('x-'))).toEqual([]);
    }
    // The service gets the same User-Agent, and the headers meant for it.
    const [call] = server.requests.filter((request) => !toIdentityProvider(request));
    expect(call?.headers['user-agent']).toBe(named);
    expect(call?.headers['x-team']).toBe('search');
    expect(call?.headers['x-agentchat-retry-count']).toBe('0');
  });

  it("sends the SDK's own User-Agent for a client without appInfo", async () => {
    server.answer((token) =>
      issuedToken(token, { issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' }),
    );
    const client = new Client({ baseUrl: server.baseUrl, apiKey: provider(server.issuer) });
    await client.projects.get('proj_1');
    const agents = server.requests
      .filter(toIdentityProvider)
      .map(({ headers }) => headers['user-agent']);
    expect(agents).toEqual([`agentchat-js/${VERSION}`, `agentchat-js/${VERSION}`]);
  });
});

describe('a key function of your own', () => {
  it("is told the client's User-Agent, for requests it makes on the client's behalf", async () => {
    const told: (string | undefined)[] = [];
    const client = new Client({
      baseUrl: server.baseUrl,
      appInfo,
      apiKey: ({ userAgent }) => {
        told.push(userAgent);
        return 'sk_test_key';
      },
    });
    await client.projects.get('proj_1');
    expect(told).toEqual([named]);
  });
});
