/**
 * The main job, end to end: create a project, read it back, chat with its agent.
 *
 * With AGENTCHAT_BASE_URL and AGENTCHAT_API_KEY set it talks to that service; otherwise it starts
 * the built-in mock service on 127.0.0.1 and talks to that.
 *
 *   npm run demo
 */
import { AgentChatError, Client } from 'agentchat';
import { startMockServer } from 'agentchat/testing';

const useRealService = Boolean(process.env.AGENTCHAT_BASE_URL && process.env.AGENTCHAT_API_KEY);
const mock = useRealService ? undefined : await startMockServer();
const client = mock ? new Client({ baseUrl: mock.baseUrl, apiKey: 'sk_demo_key' }) : new Client(); // reads AGENTCHAT_BASE_URL and AGENTCHAT_API_KEY

const show = (title: string, value: unknown) =>
  console.log(`\n${title}\n${JSON.stringify(value, null, 2).replace(/^/gm, '  ')}`);

try {
  console.log(
    `agentchat demo against ${mock ? `the mock service at ${client.baseUrl}` : client.baseUrl}`,
  );

  const created = await client.projects.create({
    name: 'Customer support',
    agentId: 'agent_support',
    metadata: { launchDate: '2026-12-01', tier: 2 },
  });
  show('1. Created a project', created);

  const project = await client.projects.get(created.id);
  show('2. Read it back', project);

  const { data: reply, requestId } = await client.chat
    .send({ projectId: project.id, message: 'How do I reset my password?' })
    .withResponse();
  show(`3. Chatted with ${project.agentId} (request ${requestId})`, reply);
} catch (error) {
  process.exitCode = 1;
  console.error(error instanceof AgentChatError ? `\n${error.name}: ${error.message}` : error);
} finally {
  await mock?.close();
}
