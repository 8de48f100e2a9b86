/**
 * The MCP server of the installed package, driven in memory by the official MCP client: list the
 * tools, create a project, read it, chat, then ask for a project that does not exist.
 *
 * It takes the modules as arguments rather than importing them, so that one file serves the ESM
 * and CJS hosts (mcp.mjs, mcp.cjs) alike, and returns plain values for the test to compare.
 *
 * @param {{ sdk: typeof import('agentchat'), mcp: typeof import('agentchat/mcp'), mcpClient: typeof import('@modelcontextprotocol/client') }} modules
 * @param {string} baseUrl the mock server's base URL
 */
async function runMcpScenario({ sdk, mcp, mcpClient }, baseUrl) {
  const client = new sdk.Client({ apiKey: 'sk_test_package', baseUrl, maxRetries: 0 });
  const server = mcp.createMcpServer({ client });
  const [clientSide, serverSide] = mcpClient.InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const agent = new mcpClient.Client({ name: 'package-check', version: '1.0.0' });
  await agent.connect(clientSide);
  const call = (name, args) => agent.callTool({ name, arguments: args });
  try {
    const { tools } = await agent.listTools();
    const created = await call('create_project', { name: 'MCP check', agentId: 'agent_mcp' });
    const { id } = created.structuredContent;
    const read = await call('get_project', { id });
    const reply = await call('send_message', { projectId: id, message: 'Hello there' });
    const missing = await call('get_project', { id: 'proj_does_not_exist' });
    return {
      tools: tools.map((tool) => tool.name).sort(),
      created: { idPrefix: id.slice(0, 5), status: created.structuredContent.status },
      read: { sameId: read.structuredContent.id === id, agentId: read.structuredContent.agentId },
      reply: reply.structuredContent.message,
      missing: { isError: missing.isError, errorClass: missing.content[0].text.split(':')[0] },
    };
  } finally {
    await agent.close();
  }
}

module.exports = { runMcpScenario };
