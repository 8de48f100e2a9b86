/**
 * Shared by the MCP tests: the official MCP client over a transport that keeps a copy of every
 * message in both directions, so a test can scan the whole conversation for a secret.
 */
import {
  type CallToolResult,
  type JSONRPCMessage,
  Client as McpClient,
  type Transport,
} from '@modelcontextprotocol/client';

/** Passes messages through to `inner` and records each one, sent or received, in order. */
export class RecordingTransport implements Transport {
  readonly messages: JSONRPCMessage[] = [];
  /** Errors the transport reported, such as a line on stdout that is not a JSON-RPC message. */
  readonly errors: Error[] = [];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      this.messages.push(message);
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => {
      this.errors.push(error);
      this.onerror?.(error);
    };
    inner.onclose = () => this.onclose?.();
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    this.messages.push(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The whole conversation as text, for searching. */
  transcript(): string {
    return this.messages.map((message) => JSON.stringify(message)).join('\n');
  }
}

/** The official MCP client, connected over a recording transport. */
export async function connectRecorded(
  inner: Transport,
): Promise<{ mcp: McpClient; transport: RecordingTransport }> {
  const transport = new RecordingTransport(inner);
  const mcp = new McpClient({ name: 'agentchat-tests', version: '1.0.0' });
  await mcp.connect(transport);
  return { mcp, transport };
}

/** Calls a tool and returns its result as the protocol defines it. */
export async function callTool(
  mcp: McpClient,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await mcp.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a result's text content blocks, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** Bad arguments for each tool, each refused by the SDK's schemas. */
export const badArguments: Array<[tool: string, args: Record<string, unknown>, field: string]> = [
  ['create_project', { agentId: 'agent_1' }, 'name'],
  ['create_project', { name: '', agentId: 'agent_1' }, 'name'],
  ['create_project', { name: 'Demo', agentId: 'agent_1', metadata: 'tier 2' }, 'metadata'],
  ['create_project', { name: 'Demo', agentId: 'agent_1', agent: 'agent_2' }, 'agent'],
  ['get_project', { id: '..' }, 'id'],
  ['get_project', { id: 42 }, 'id'],
  ['send_message', { projectId: 'proj_1', message: '' }, 'message'],
  ['send_message', { message: 'Hello' }, 'projectId'],
];

/** Every tool of agentchat/mcp, sorted. */
export const allToolNames = ['create_project', 'get_project', 'send_message'];

/** The names of the tools a server lists, sorted. */
export async function listedToolNames(mcp: McpClient): Promise<string[]> {
  return (await mcp.listTools()).tools.map((tool) => tool.name).sort();
}
