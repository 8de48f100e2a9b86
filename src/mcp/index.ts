/**
 * An MCP server over the client: the service's three operations as tools for AI agents, so that
 * any Model Context Protocol host (Claude Desktop, IDE agents, an agent loop of your own) can
 * create a project, read it and chat with its agent. Needs the optional peer dependency
 * `@modelcontextprotocol/server` (2.4 or later). The `agentchat-mcp` bin serves it on stdio, or
 * over MCP Streamable HTTP with `--http`; {@link createMcpHttpHandler} is that HTTP face as a
 * web-standard handler for Workers, Deno, Bun and Node.
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
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
  type OneClientSource,
} from './http-handler.js';
export { type NodeListenerOptions, toNodeListener } from './node-listener.js';
export type { McpToolScope, ReadOnlyToolName, ScopedToolList, ToolName } from './scope.js';
export type { McpScopeNames } from './scope-names.js';
export { createMcpServer, type McpServerOptions } from './server.js';
export type { IntrospectionCredentials } from './token-verifier.js';
