/**
 * The stdio face of `agentchat-mcp`: one MCP server for the host that started the process, on its
 * standard input and output.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Client } from '../index.js';
import type { McpToolScope } from './scope.js';
import { createMcpServer } from './server.js';

/**
 * Serves the tools in `scope` over `client` on stdio, with their MCP Apps views unless `apps`
 * is false, until the host closes the pipe.
 */
export function serveOnStdio(client: Client, scope: McpToolScope, apps: boolean): void {
  // Made once here, so that a bad scope stops the bin before the host connects.
  createMcpServer({ client, ...scope, apps });
  serveStdio(() => createMcpServer({ client, ...scope, apps }), {
    onerror: (error) => process.stderr.write(`agentchat-mcp: ${error.message}\n`),
  });
}
