/**
 * An MCP server over the client: the service's three operations as tools for AI agents, so that
 * any Model Context Protocol host (Claude Desktop, IDE agents, an agent loop of your own) can
 * create a project, read it and chat with its agent. Needs the optional peer dependency
 * `@modelcontextprotocol/server` (2.x). The `agentchat-mcp` bin serves it on stdio.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { createMcpServer } from 'agentchat/mcp';
 * import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
 *
 * const server = createMcpServer({ client: new Client() });
 * await server.connect(new StdioServerTransport());
 * ```
 *
 * @packageDocumentation
 * @module agentchat/mcp
 */
export { createMcpServer, type McpServerOptions } from './server.js';
