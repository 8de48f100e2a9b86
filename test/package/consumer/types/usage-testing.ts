// Type-checked by test/package/types.test.ts beside usage.ts: the mock service. Its types build on
// msw's, which need the DOM library (msw's own requirement), so it is checked with `lib: ["dom"]`.
import { type ChatReply, Client, NotFoundError } from 'agentchat';
import {
  createMockService,
  type Fault,
  type IssuedToken,
  type MockAgent,
  type MockServer,
  type MockService,
  type OAuthClient,
  type ProjectSeed,
  startMockServer,
} from 'agentchat/testing';

export async function usageOfTheMock(): Promise<number> {
  const mock: MockService = createMockService({ baseUrl: 'https://agentchat.test/api' });
  const fault: Fault = { kind: 'status', status: 503, headers: { 'retry-after': '0' } };
  mock.enqueue(fault);
  // @ts-expect-error a fault has a known kind
  mock.enqueue({ kind: 'explode' });
  mock.enqueue({ kind: 'status', status: 503, path: '/oauth/token' });

  const reporting: OAuthClient = {
    clientId: 'reporting',
    clientSecret: 's3cret',
    scopes: ['read'],
  };
  const withOAuth = createMockService({
    oauthClients: [reporting],
    tokenLifetimeSeconds: 60,
    corsOrigins: ['http://localhost:5173'],
  });
  const tokens: IssuedToken[] = withOAuth.oauth.tokens();
  withOAuth.oauth.expireTokens();
  const revoked: boolean = withOAuth.oauth.revokeToken(tokens[0]?.accessToken ?? '');

  // The test kit: seeds, a scripted agent, overrides in the SDK's own types.
  const seed: ProjectSeed = { id: 'proj_support', name: 'Support', agentId: 'agent_support' };
  const agent: MockAgent = ({ project, message }) => ({
    message: `${project.name}: ${message}`,
    suggestions: [],
  });
  const kit = createMockService({ projects: [seed], agent });
  kit.override('chat.send', (): ChatReply => ({ message: 'Hi', suggestions: [] }), { once: true });
  kit.override('projects.get', ({ params }) => ({ kind: 'status', status: 404, body: params }));
  // @ts-expect-error a chat reply needs suggestions
  kit.override('chat.send', () => ({ message: 'Hi' }));

  const server: MockServer = await startMockServer({
    port: 0,
    apiKeys: ['sk_test'],
    projects: [seed],
  });
  const client = new Client({ apiKey: 'sk_test', baseUrl: server.baseUrl });
  const missing = await client.projects.get('proj_missing').catch((error: unknown) => error);
  await server.close();
  return missing instanceof NotFoundError && !revoked ? mock.requestLog().length : -1;
}
