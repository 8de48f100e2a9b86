// Imports the MCP server beside the client but never uses it: with `sideEffects: false` a bundler
// must leave agentchat/mcp and the MCP SDK out of the bundle entirely.
import { Client } from 'agentchat';
// biome-ignore lint/correctness/noUnusedImports: an unused import is what this app is about
import { createMcpServer } from 'agentchat/mcp';

const client = new Client({
  apiKey: 'sk_test_package',
  baseUrl: 'https://example.test/api',
  dangerouslyAllowBrowser: true,
});
document.body.textContent = (await client.projects.get('proj_1')).name;
