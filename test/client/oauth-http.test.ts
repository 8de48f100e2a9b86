/**
 * Client credentials over real sockets: the mock HTTP server on 127.0.0.1 issues the token, the
 * service accepts it, and a revoked token is replaced by the 401 replay.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, clientCredentials, OAuthError } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

const credentials = { clientId: 'backend', clientSecret: 'backend:secret/+' };
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ oauthClients: [credentials] });
});
afterAll(() => server.close());

it('gets a token, creates a project, and replays a call once its token is revoked', async () => {
  const apiKey = clientCredentials({ tokenUrl: `${server.baseUrl}/oauth/token`, ...credentials });
  const client = new Client({ apiKey, baseUrl: server.baseUrl });

  const { id } = await client.projects.create({ name: 'Over HTTP', agentId: 'agent_1' });
  const [first] = server.service.oauth.tokens();
  server.service.oauth.revokeToken(first?.accessToken ?? '');
  const project = await client.projects.get(id);

  expect(project.name).toBe('Over HTTP');
  expect(server.service.oauth.tokens()).toHaveLength(2);
  const statuses = server.service.requestLog().map((r) => `${r.method} ${r.status}`);
  expect(statuses).toEqual(['POST 200', 'POST 201', 'GET 401', 'POST 200', 'GET 200']);
});

it('fails with OAuthError over HTTP when the client is unknown', async () => {
  const apiKey = clientCredentials({
    tokenUrl: `${server.baseUrl}/oauth/token`,
    clientId: 'stranger',
    clientSecret: 'nope',
  });
  const error = await new Client({ apiKey, baseUrl: server.baseUrl }).projects
    .get('proj_1')
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OAuthError);
  expect(error).toMatchObject({ status: 401, error: 'invalid_client' });
});
