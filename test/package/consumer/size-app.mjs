// The smallest app that uses all three operations: its minified, gzipped bundle is the size budget.
import { Client } from 'agentchat';

const client = new Client({
  apiKey: 'sk_test_package',
  baseUrl: 'https://example.test/api',
  dangerouslyAllowBrowser: true,
});
const project = await client.projects.create({ name: 'Size', agentId: 'agent_1' });
const read = await client.projects.get(project.id);
const reply = await client.chat.send({ projectId: read.id, message: 'Hi' });
document.body.textContent = reply.message;
