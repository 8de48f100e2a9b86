// The web-standard face of agentchat/mcp in a runtime: `<runtime> mcp-http.mjs <baseUrl> <key>`
// serves the handler in process (no port: the official MCP client's fetch is the handler's), runs
// the tools with the caller's key passed through, and prints the outcome as one JSON line.
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHttpHandler } from 'agentchat/mcp';

const [baseUrl, key] = process.argv.slice(2);
const handler = createMcpHttpHandler({ clientOptions: { baseUrl } });
const fetchFromHandler = (url, init) => handler.fetch(new Request(url, init));

async function connect(headers) {
  const client = new McpClient({ name: 'runtime-check', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://agentchat.local/mcp'), {
      fetch: fetchFromHandler,
      requestInit: { headers },
    }),
  );
  return client;
}

const mcp = await connect({ authorization: `Bearer ${key}` });
const { tools } = await mcp.listTools();
const created = await mcp.callTool({
  name: 'create_project',
  arguments: { name: 'From a runtime', agentId: 'agent_runtime' },
});
const read = await mcp.callTool({
  name: 'get_project',
  arguments: { id: created.structuredContent.id },
});
await mcp.close();
const unauthorized = await handler.fetch(
  new Request('http://agentchat.local/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  }),
);
const health = await handler.fetch(new Request('http://agentchat.local/health'));
await handler.close();

console.log(
  JSON.stringify({
    tools: tools.map((tool) => tool.name).sort(),
    created: created.structuredContent.id.startsWith('proj_'),
    read: read.structuredContent.agentId,
    unauthorized: [
      unauthorized.status,
      unauthorized.headers.get('www-authenticate')?.split(' ')[0],
    ],
    health: await health.json(),
  }),
);
