/**
 * OAuth 2.0 client credentials: the client asks the token endpoint for an access token, shares it
 * between calls, refreshes it before it expires, and replays a call the service refuses with 401.
 *
 *   AGENTCHAT_BASE_URL=https://host/api AGENTCHAT_CLIENT_ID=... AGENTCHAT_CLIENT_SECRET=... \
 *     npx tsx examples/oauth.ts
 *
 * AGENTCHAT_TOKEN_URL names the token endpoint; it defaults to `${AGENTCHAT_BASE_URL}/oauth/token`,
 * where the mock service has one: `npx agentchat-mock --client my-service:s3cret` starts it.
 */
import { Client, clientCredentials, OAuthError } from 'agentchat';

const baseUrl = process.env.AGENTCHAT_BASE_URL ?? 'http://127.0.0.1:4010/api';
// The client id and secret are read from AGENTCHAT_CLIENT_ID and AGENTCHAT_CLIENT_SECRET.
const apiKey = clientCredentials({
  tokenUrl: process.env.AGENTCHAT_TOKEN_URL ?? `${baseUrl}/oauth/token`,
  scope: 'projects chat',
});
const client = new Client({ apiKey, baseUrl });

// Ten calls at once share one token: the token endpoint is asked once.
const projects = await Promise.all(
  Array.from({ length: 10 }, (_, i) =>
    client.projects.create({ name: `Team ${i + 1}`, agentId: 'agent_support' }),
  ),
);
console.log(`created ${projects.length} projects with one access token`);

const reply = await client.chat.send({ projectId: projects[0]?.id ?? '', message: 'Hello!' });
console.log(`agent: ${reply.message}`);

// Wrong client credentials fail with OAuthError, before anything reaches the service.
const wrong = new Client({
  baseUrl,
  apiKey: clientCredentials({
    tokenUrl: process.env.AGENTCHAT_TOKEN_URL ?? `${baseUrl}/oauth/token`,
    clientId: 'nobody',
    clientSecret: 'not-the-secret',
  }),
});
try {
  await wrong.projects.get(projects[0]?.id ?? '');
} catch (error) {
  if (!(error instanceof OAuthError)) throw error;
  console.log(`refused: ${error.error} (status ${error.status})`);
}
