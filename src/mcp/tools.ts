/**
 * The MCP server's tools are the framework-neutral table of src/tools/, which the agent
 * frameworks' entries read too; server.ts registers each with MCP's own types (the table's
 * schemas are Standard Schemas with JSON Schema, its hints MCP's `ToolAnnotations`).
 */
export type { AgentChatTool, Operations } from '../tools/table.js';
