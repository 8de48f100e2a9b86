/**
 * `X-AgentChat-Retry-Count` is the service's header: every attempt at the service carries it, the
 * 401 replay counted, and no request to an identity provider does (token requests, their retries,
 * issuer discovery, agentchat/mcp's reading of the issuer's metadata), over real sockets: the mock
 * service over HTTP and oidc-provider on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, clientCredentials } from '../../src/index.js';
import { issuerMetadata } from '../../src/mcp/issuer-documents.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';

const HEADER = 'x-agentchat-retry-count';
const credentials = { clientId: 'backend', clientSecret: 'backend-secret' };
let mock: MockServer;
let issuer: AuthorizationServer;

beforeAll(async () => {
  [mock, issuer] = await Promise.all([
    startMockServer({ oauthClients: [credentials] }),
    startAuthorizationServer(),
  ]);
});
afterAll(() => Promise.all([mock?.close(), issuer?.close()]));

describe('X-AgentChat-Retry-Count', () => {
  it('is sent on every attempt at the service, the 401 replay counted, never to the token endpoint', async () => {
    const apiKey = clientCredentials({ tokenUrl: `${mock.baseUrl}/oauth/token`, ...credentials });
    const client = new Client({ apiKey, baseUrl: mock.baseUrl });
    // The token endpoint's first answer is a 503, so that its retry is seen too.
    mock.service.enqueue({
      kind: 'status',
      status: 503,
      path: '/oauth/token',
      headers: { 'retry-after-ms': '0' },
    });
    const { id } = await client.projects.create({ name: 'Counted', agentId: 'agent_1' });
    const [first] = mock.service.oauth.tokens();
    mock.service.oauth.revokeToken(first?.accessToken ?? '');
    await client.projects.get(id);

    const sent = mock.service
      .requestLog()
      .map((entry) => [
        entry.path.endsWith('/oauth/token') ? 'token' : `${entry.method} project`,
        entry.status,
        entry.headers[HEADER],
      ]);
    expect(sent).toEqual([
      ['token', 503, undefined],
      ['token', 200, undefined],
      ['POST project', 201, '0'],
      ['GET project', 401, '0'],
      ['token', 200, undefined],
      ['GET project', 200, '1'],
    ]);
  });

  it("is not sent with clientCredentials' issuer discovery or its token request", async () => {
    const from = issuer.paths.length;
    const apiKey = clientCredentials({
      issuer: issuer.issuer,
      ...issuer.secretClient,
      resource: issuer.resource,
    });

    expect(await apiKey({})).toMatch(/\S/);

    const paths = issuer.paths.slice(from);
    expect(paths).toEqual(['/.well-known/oauth-authorization-server', '/token']);
    expect(issuer.headers.slice(from).map((headers) => headers[HEADER])).toEqual([
      undefined,
      undefined,
    ]);
  });

  it("is not sent with agentchat/mcp's reading of the issuer's metadata", async () => {
    const from = issuer.paths.length;

    const metadata = await issuerMetadata(issuer.issuer, undefined, undefined).get();

    expect(metadata.issuer).toBe(issuer.issuer);
    expect(issuer.paths.slice(from)).toEqual(['/.well-known/oauth-authorization-server']);
    expect(issuer.headers.slice(from).map((headers) => headers[HEADER])).toEqual([undefined]);
  });
});
