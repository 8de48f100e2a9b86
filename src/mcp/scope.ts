import { AgentChatError } from '../index.js';
import { closest } from '../internal/closest.js';
import { type AgentChatTool, createProject, getProject, sendMessage } from './tools.js';

/**
 * A tool of agentchat/mcp, by the name MCP clients see.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { createMcpServer, type ToolName } from 'agentchat/mcp';
 *
 * const tools: ToolName[] = ['get_project', 'send_message'];
 * const server = createMcpServer({ client: new Client(), tools });
 * ```
 */
export type ToolName = 'create_project' | 'get_project' | 'send_message';

/** Every tool, in the order `tools/list` gives them. */
// biome-ignore lint/suspicious/noExplicitAny: the list holds tools of different shapes
export const allTools: readonly AgentChatTool<any, any>[] = [
  createProject,
  getProject,
  sendMessage,
];

/**
 * Which tools a server offers, for hosts that should not get them all: an agent that may only
 * read, or one that needs a single operation.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { createMcpServer, type McpToolScope } from 'agentchat/mcp';
 *
 * const scope: McpToolScope = { readOnly: true };
 * const server = createMcpServer({ client: new Client(), ...scope });
 * ```
 */
export interface McpToolScope {
  /**
   * The tools to offer, by name. Unknown names are refused when the server is made.
   *
   * @default all three
   */
  tools?: readonly ToolName[];
  /**
   * Offer only the tools that change nothing (`get_project`). With `tools`, every tool named
   * must be read-only.
   *
   * @default false
   */
  readOnly?: boolean;
}

/**
 * The tools a scope selects, in their usual order.
 *
 * @throws {@link AgentChatError} for a name that is not a tool (with the one probably meant), an
 * empty list, or a tool that changes something named in a read-only scope.
 */
// biome-ignore lint/suspicious/noExplicitAny: see allTools
export function toolsInScope(scope: McpToolScope): readonly AgentChatTool<any, any>[] {
  const { tools, readOnly = false } = scope;
  const names = allTools.map((tool) => tool.name);
  if (tools !== undefined) {
    if (!Array.isArray(tools) || tools.length === 0) {
      throw new AgentChatError(`tools must list one or more of ${names.join(', ')}.`);
    }
    for (const name of tools as readonly unknown[]) {
      if (typeof name === 'string' && names.includes(name)) continue;
      const meant = typeof name === 'string' ? closest(name, names) : undefined;
      throw new AgentChatError(
        `Unknown tool ${JSON.stringify(name)}${meant ? `; did you mean ${meant}?` : ''} ` +
          `(the tools are ${names.join(', ')}).`,
      );
    }
  }
  const chosen = allTools.filter(
    (tool) => tools === undefined || tools.includes(tool.name as ToolName),
  );
  if (!readOnly) return chosen;
  const writing = chosen.filter((tool) => tool.annotations.readOnlyHint !== true);
  if (tools !== undefined && writing.length > 0) {
    throw new AgentChatError(
      `A read-only server cannot offer ${writing.map((tool) => tool.name).join(', ')}, which ` +
        'changes something: drop it from tools, or drop readOnly.',
    );
  }
  return chosen.filter((tool) => tool.annotations.readOnlyHint === true);
}
