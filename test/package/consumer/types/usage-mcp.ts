// Type-checked by test/package/types.test.ts beside usage.ts: the MCP server. A client made from
// `agentchat` must be accepted as it is, under every module setting.
import { Client } from 'agentchat';
import { createMcpServer, type McpServerOptions } from 'agentchat/mcp';

export async function usageOfTheMcpServer(): Promise<string[]> {
  const options: McpServerOptions = {
    client: new Client({ apiKey: 'sk_test', baseUrl: 'https://host/api' }),
  };
  const server = createMcpServer(options);
  // @ts-expect-error the server needs a client
  createMcpServer({});
  // @ts-expect-error a client is a Client, not its options
  createMcpServer({ client: { apiKey: 'sk_test' } });
  await server.close();
  return [server.server.getCapabilities().tools ? 'tools' : 'none'];
}
