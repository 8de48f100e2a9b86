// The size app with private_key_jwt: what signing (jose) adds when an app uses it.
import { Client, clientCredentials } from 'agentchat';

const client = new Client({
  apiKey: clientCredentials({
    issuer: 'https://example.test',
    clientId: 'web',
    privateKey: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' },
  }),
  baseUrl: 'https://example.test/api',
  dangerouslyAllowBrowser: true,
});
const project = await client.projects.create({ name: 'Size', agentId: 'agent_1' });
const read = await client.projects.get(project.id);
const reply = await client.chat.send({ projectId: read.id, message: 'Hi' });
document.body.textContent = reply.message;
