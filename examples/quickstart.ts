/**
 * Quickstart: create a project bound to an agent, read it back, and chat with the agent.
 *
 *   AGENTCHAT_API_KEY=sk_... AGENTCHAT_BASE_URL=https://host/api npx tsx examples/quickstart.ts
 *
 * No service at hand? `npm run mock` starts the mock service on http://127.0.0.1:4010/api; then
 *
 *   AGENTCHAT_API_KEY=sk_test AGENTCHAT_BASE_URL=http://127.0.0.1:4010/api npx tsx examples/quickstart.ts
 */
import { Client } from 'agentchat';

// With no options the client reads AGENTCHAT_API_KEY and AGENTCHAT_BASE_URL.
const client = new Client();

const project = await client.projects.create({
  name: 'Customer support',
  agentId: 'agent_support',
  metadata: { launchDate: '2026-12-01', tier: 2 },
});
console.log(`Created ${project.id} (${project.status}) at ${project.createdAt}`);

// The create response carries only id, name, status and createdAt; get returns the rest.
const stored = await client.projects.get(project.id);
console.log(`Agent ${stored.agentId}, metadata ${JSON.stringify(stored.metadata)}`);

// Await a call for its data, or use .withResponse() for the raw response and its request id too.
const { data: reply, requestId } = await client.chat
  .send({ projectId: project.id, message: 'How do I reset my password?' })
  .withResponse();
console.log(`Agent: ${reply.message}`);
for (const suggestion of reply.suggestions) console.log(`  try: ${String(suggestion)}`);
console.log(`(request id ${requestId}, quote it when you contact support)`);
