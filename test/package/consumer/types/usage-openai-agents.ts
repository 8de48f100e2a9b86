// Type-checked by test/package/entry-types.test.ts in a project with the OpenAI Agents SDK as its
// only peer: the tools as an Agent's `tools` take them.
import type { Tool } from '@openai/agents';
import { Client } from 'agentchat';
import { type AgentChatFunctionTool, agentchatTools } from 'agentchat/openai-agents';

export function usageOfTheAgentsSdkTools(): Tool[] {
  const client = new Client({ apiKey: 'sk_test' });
  const tools: AgentChatFunctionTool[] = agentchatTools(client, { needsApproval: true });
  // @ts-expect-error only the table's tools have names
  agentchatTools(client, { tools: ['delete_project'] });
  return tools;
}
