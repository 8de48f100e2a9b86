/** examples/oauth.ts, run as a user would run it, against the mock service with an OAuth client. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

const credentials = { clientId: 'example-service', clientSecret: 'example:secret/+' };
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ oauthClients: [credentials] });
});
afterAll(() => server?.close());

it('runs examples/oauth.ts: one token for ten calls, and OAuthError for a stranger', {
  timeout: 30_000,
}, async () => {
  const { code, stdout, stderr } = await runProcess(
    process.execPath,
    [...tsxLoader, 'examples/oauth.ts'],
    {
      env: {
        ...process.env,
        AGENTCHAT_BASE_URL: server.baseUrl,
        AGENTCHAT_CLIENT_ID: credentials.clientId,
        AGENTCHAT_CLIENT_SECRET: credentials.clientSecret,
        AGENTCHAT_LOG: '',
      },
    },
  );

  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toContain('created 10 projects with one access token');
  expect(stdout).toMatch(/agent: Hello! agent_support here/);
  expect(stdout).toContain('refused: invalid_client (status 401)');
  const [token, ...more] = server.service.oauth.tokens();
  expect(more).toEqual([]);
  expect(token).toMatchObject({ clientId: credentials.clientId, scope: 'projects chat' });
  const calls = server.service.requests.filter((r) => !r.path.endsWith('/oauth/token'));
  expect(calls).toHaveLength(11);
  expect(calls.every((r) => r.headers.authorization === `Bearer ${token?.accessToken}`)).toBe(true);
});
