/**
 * The agent's side of agentchat-mcp: start the server as an MCP host does, read the tools it
 * offers, and use them the way a model would, failures included. It needs the MCP client
 * (`npm install @modelcontextprotocol/client`) and, beside agentchat, the server's peer
 * (`npm install @modelcontextprotocol/server`).
 *
 *   AGENTCHAT_API_KEY=sk_... AGENTCHAT_BASE_URL=https://host/api npx tsx examples/mcp-agent.ts
 *
 * The server is started with `npx agentchat-mcp`, or with the command given after the file name:
 *
 *   npx tsx examples/mcp-agent.ts node ./node_modules/agentchat/dist/mcp/bin.js
 */
import { type CallToolResult, Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [command = 'npx', ...args] =
  process.argv.length > 2 ? process.argv.slice(2) : ['npx', 'agentchat-mcp'];

// What a host's configuration gives the server: the command, its arguments and its environment.
const transport = new StdioClientTransport({
  command,
  args,
  env: {
    AGENTCHAT_API_KEY: process.env.AGENTCHAT_API_KEY ?? '',
    AGENTCHAT_BASE_URL: process.env.AGENTCHAT_BASE_URL ?? '',
  },
});
const mcp = new Client({ name: 'example-agent', version: '1.0.0' });
await mcp.connect(transport);

/** What a model reads of a result: its text, and whether it is an error. */
function show(tool: string, result: CallToolResult): void {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join(' ');
  console.log(`${tool}${result.isError ? ' (tool error)' : ''}: ${text.replaceAll('\n', ' ')}`);
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  show(name, result);
  return result;
}

// The tools, with the hints a host uses to decide what needs the user's approval.
const { tools } = await mcp.listTools();
for (const tool of tools) {
  const readOnly = tool.annotations?.readOnlyHint ? 'read-only' : 'changes state';
  console.log(`tool ${tool.name} (${readOnly}): ${tool.description?.split('. ')[0]}.`);
}

// A result's structuredContent is the SDK's typed value, checked against the tool's outputSchema.
const created = await call('create_project', {
  name: 'Onboarding assistant',
  agentId: 'agent_onboarding',
  metadata: { team: 'support' },
});
const project = created.structuredContent as { id: string };

const reply = await call('send_message', {
  projectId: project.id,
  message: 'What should a new customer do first?',
});
// An agent loop may follow up with one of the agent's own suggestions.
const [suggestion] = (reply.structuredContent as { suggestions: unknown[] }).suggestions;
if (typeof suggestion === 'string')
  await call('send_message', { projectId: project.id, message: suggestion });

// A failure is a result the model reads, not an exception: it says what happened, with the
// request id to quote to support.
await call('get_project', { id: 'proj_does_not_exist' });

// Arguments the SDK would refuse are refused by the tool before anything reaches the service.
await call('send_message', { projectId: project.id, message: '' });

await mcp.close();
