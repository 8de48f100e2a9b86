/**
 * One OAuth token for a fleet: every process that runs this shares the token through Redis, so
 * the token endpoint is asked once for all of them, not once per process (or cold start).
 *
 *   REDIS_URL=redis://127.0.0.1:6379 AGENTCHAT_BASE_URL=https://host/api \
 *     AGENTCHAT_CLIENT_ID=... AGENTCHAT_CLIENT_SECRET=... npx tsx examples/oauth-redis.ts
 *
 * The cache holds a bearer token: give Redis TLS (`rediss://`) and a user whose ACL reaches only
 * the `agentchat:*` keys. docs/authentication.md, "Serverless and fleets", says more.
 */
import { Client, clientCredentials } from 'agentchat';
import { connectTokenCache } from './redis-token-cache.js';

const redis = await connectTokenCache(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const baseUrl = process.env.AGENTCHAT_BASE_URL ?? 'http://127.0.0.1:4010/api';
const client = new Client({
  baseUrl,
  logLevel: 'warn',
  apiKey: clientCredentials({
    // The client id and secret are read from AGENTCHAT_CLIENT_ID and AGENTCHAT_CLIENT_SECRET.
    tokenUrl: process.env.AGENTCHAT_TOKEN_URL ?? `${baseUrl}/oauth/token`,
    cache: redis.cache,
  }),
});

// Twenty calls at once: the first process to start asks for the token; the rest find it in Redis.
const projects = await Promise.all(
  Array.from({ length: 20 }, (_, i) =>
    client.projects.create({ name: `Fleet ${i + 1}`, agentId: 'agent_support' }),
  ),
);
console.log(`created ${projects.length} projects with the fleet's token`);

await redis.close();
