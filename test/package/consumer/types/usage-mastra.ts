// Type-checked by test/package/entry-types.test.ts in a project with Mastra's core as its only
// peer: the tools as a Mastra agent's `tools` take them.
import type { ToolsInput } from '@mastra/core/agent';
import { Client } from 'agentchat';
import { type AgentChatToolSet, agentchatTools } from 'agentchat/mastra';

export function usageOfTheMastraTools(): ToolsInput {
  const client = new Client({ apiKey: 'sk_test' });
  const tools: AgentChatToolSet = agentchatTools(client, {
    tools: ['get_project', 'send_message'],
  });
  // @ts-expect-error only the table's tools have names
  agentchatTools(client, { tools: ['delete_project'] });
  return tools;
}
