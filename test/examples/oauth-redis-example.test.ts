/**
 * examples/oauth-redis.ts, run as a user would run it: two processes of a fleet, one after the
 * other, against a real Redis and the mock service with an OAuth client. The second finds the
 * first one's token in Redis.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

const credentials = { clientId: 'example-fleet', clientSecret: 'example:fleet/+secret' };
let server: MockServer;
let redis: RedisServer;

beforeAll(async () => {
  [server, redis] = await Promise.all([
    startMockServer({ oauthClients: [credentials] }),
    startRedisServer(),
  ]);
});
afterAll(async () => {
  await server?.close();
  await redis?.kill();
});

const runExample = () =>
  runProcess(process.execPath, [...tsxLoader, 'examples/oauth-redis.ts'], {
    env: {
      ...process.env,
      REDIS_URL: redis.url,
      AGENTCHAT_BASE_URL: server.baseUrl,
      AGENTCHAT_CLIENT_ID: credentials.clientId,
      AGENTCHAT_CLIENT_SECRET: credentials.clientSecret,
      AGENTCHAT_LOG: '',
    },
  });

it('runs examples/oauth-redis.ts twice: one token request for both processes', {
  timeout: 60_000,
}, async () => {
  for (const run of [await runExample(), await runExample()]) {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("created 20 projects with the fleet's token\n");
  }

  expect(server.service.oauth.tokenRequests()).toBe(1);
  const [token] = server.service.oauth.tokens();
  const calls = server.service.requests.filter((r) => !r.path.endsWith('/oauth/token'));
  expect(calls).toHaveLength(40);
  expect(calls.every((r) => r.headers.authorization === `Bearer ${token?.accessToken}`)).toBe(true);
});
