// Type-checked by test/package/entry-types.test.ts in a project with LangChain's core as its only
// peer: the structured tools and the approval map of humanInTheLoopMiddleware.
import type { StructuredToolInterface } from '@langchain/core/tools';
import { Client } from 'agentchat';
import { agentchatInterruptOn, agentchatTools } from 'agentchat/langchain';

export function usageOfTheLangChainTools(): StructuredToolInterface[] {
  const client = new Client({ apiKey: 'sk_test' });
  const interruptOn = agentchatInterruptOn({ needsApproval: ['send_message'] });
  const asked: true | undefined = interruptOn.send_message;
  // @ts-expect-error only the table's tools have names
  agentchatTools(client, { tools: ['delete_project'] });
  return asked ? agentchatTools(client) : agentchatTools(client, { readOnly: true });
}
