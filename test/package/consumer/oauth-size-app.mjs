// The size app with OAuth 2.0 client credentials: what the provider adds when an app uses it.
import { Client, clientCredentials } from 'agentchat';

const client = new Client({
  apiKey: clientCredentials({
    tokenUrl: 'https://example.test/api/oauth/token',
    clientId: 'web',
    clientSecret: 'secret',
  }),
  baseUrl: 'https://example.test/api',
  dangerouslyAllowBrowser: true,
});
const project = await client.projects.create({ name: 'Size', agentId: 'agent_1' });
const read = await client.projects.get(project.id);
const reply = await client.chat.send({ projectId: read.id, message: 'Hi' });
document.body.textContent = reply.message;
