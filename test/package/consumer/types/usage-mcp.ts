// Type-checked by test/package/types.test.ts beside usage.ts: the MCP server. A client made from
// `agentchat` must be accepted as it is, under every module setting.
import { Client } from 'agentchat';
import {
  createMcpHttpHandler,
  createMcpServer,
  type McpServerOptions,
  type ReadOnlyToolName,
} from 'agentchat/mcp';

export async function usageOfTheMcpServer(): Promise<string[]> {
  const options: McpServerOptions = {
    client: new Client({ apiKey: 'sk_test', baseUrl: 'https://host/api' }),
  };
  const server = createMcpServer(options);
  // @ts-expect-error the server needs a client
  createMcpServer({});
  // @ts-expect-error a client is a Client, not its options
  createMcpServer({ client: { apiKey: 'sk_test' } });
  // @ts-expect-error a read-only server offers only the tools that change nothing
  createMcpServer({ ...options, readOnly: true, tools: ['create_project'] });
  const readTools: ReadOnlyToolName[] = ['get_project'];
  createMcpServer({ ...options, readOnly: true, tools: readTools });
  // @ts-expect-error a client of its own, or the options of each caller's: not both
  createMcpHttpHandler({ client: options.client, clientOptions: { baseUrl: 'https://host/api' } });
  createMcpHttpHandler({ client: options.client, readOnly: true, tools: ['get_project'] });
  await server.close();
  return [server.server.getCapabilities().tools ? 'tools' : 'none'];
}
