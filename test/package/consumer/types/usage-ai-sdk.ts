// Type-checked by test/package/entry-types.test.ts in a project with the AI SDK as its only peer:
// the tools and the approval configuration as the AI SDK's own types take them.
import { Client } from 'agentchat';
import { type AgentChatToolSet, agentchatToolApproval, agentchatTools } from 'agentchat/ai-sdk';
import type { ToolSet } from 'ai';

export function usageOfTheAiSdkTools(): ToolSet {
  const client = new Client({ apiKey: 'sk_test' });
  const tools: AgentChatToolSet = agentchatTools(client, {
    readOnly: true,
    tools: ['get_project'],
  });
  const approval = agentchatToolApproval({ needsApproval: ['create_project'] });
  const asked: 'user-approval' | undefined = approval.create_project;
  // @ts-expect-error only the table's tools have names
  agentchatTools(client, { tools: ['delete_project'] });
  return asked === undefined ? {} : tools;
}
