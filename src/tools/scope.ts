import { ConfigurationError } from '../index.js';
import { closest } from '../internal/closest.js';
import { type AgentChatTool, createProject, getProject, sendMessage } from './table.js';

/** Every tool, in the order they are offered: the names below are read from it. */
const toolTable = [createProject, getProject, sendMessage] as const;

/** One tool of {@link toolTable}, with its name and `readOnlyHint` as literal types. */
type TableTool = (typeof toolTable)[number];

/**
 * A tool of agentchat/mcp and of the agent frameworks' entries, by the name models see.
 *
 * @useDeclaredType
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { createMcpServer, type ToolName } from 'agentchat/mcp';
 *
 * const tools: ToolName[] = ['get_project', 'send_message'];
 * const server = createMcpServer({ client: new Client(), tools });
 * ```
 */
export type ToolName = TableTool['name'];

/**
 * {@link ToolName} as the agent frameworks' entries name it in their declarations. A declaration
 * of its own, not agentchat/mcp's re-export: the published declarations of an entry that names a
 * type another entry exports import it from that entry, and agentchat/mcp's declarations import
 * the MCP SDK, which users of agentchat/ai-sdk or agentchat/langchain need not install.
 *
 * @example
 * ```ts
 * import { agentchatToolApproval } from 'agentchat/ai-sdk';
 *
 * // Keyed by tool name: { create_project: 'user-approval', send_message: 'user-approval' }.
 * const toolApproval = agentchatToolApproval({ needsApproval: true });
 * ```
 */
export type FrameworkToolName = ToolName;

/**
 * A tool that changes nothing (`get_project`): the only kind a scope with `readOnly: true` may
 * list.
 *
 * @useDeclaredType
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { createMcpServer, type ReadOnlyToolName } from 'agentchat/mcp';
 *
 * const tools: ReadOnlyToolName[] = ['get_project'];
 * const server = createMcpServer({ client: new Client(), readOnly: true, tools });
 * ```
 */
export type ReadOnlyToolName = Extract<
  TableTool,
  { readonly annotations: { readonly readOnlyHint: true } }
>['name'];

/** Every tool, in the order they are offered. */
// biome-ignore lint/suspicious/noExplicitAny: the list holds tools of different shapes
export const allTools: readonly AgentChatTool<any, any>[] = toolTable;

/** Which tools to offer: the `tools` and `readOnly` options every face takes. */
export interface ToolSelection {
  readonly tools?: readonly ToolName[] | undefined;
  readonly readOnly?: boolean | undefined;
}

/**
 * The tools a selection names, in their usual order. `offeredBy` names what offers them in the
 * message refusing a tool that changes something ("server", "tool set").
 *
 * @throws {@link ConfigurationError} for a name that is not a tool (with the one probably meant), an
 * empty list, or a tool that changes something named in a read-only selection.
 */
export function toolsInScope(
  selection: ToolSelection,
  offeredBy = 'server',
  // biome-ignore lint/suspicious/noExplicitAny: see allTools
): readonly AgentChatTool<any, any>[] {
  const { tools, readOnly = false } = selection;
  if (tools !== undefined) checkedToolNames(tools, 'tools');
  const chosen = allTools.filter(
    (tool) => tools === undefined || tools.includes(tool.name as ToolName),
  );
  if (!readOnly) return chosen;
  const writing = chosen.filter((tool) => tool.annotations.readOnlyHint !== true);
  if (tools !== undefined && writing.length > 0) {
    throw new ConfigurationError(
      `A read-only ${offeredBy} cannot offer ${writing.map((tool) => tool.name).join(', ')}, which ` +
        'changes something: drop it from tools, or drop readOnly.',
    );
  }
  return chosen.filter((tool) => tool.annotations.readOnlyHint === true);
}

/**
 * `list` as tool names, checked: a non-empty array of names of tools.
 *
 * @throws {@link ConfigurationError} naming `option` for anything else, with the name probably
 * meant for a misspelt one.
 */
export function checkedToolNames(list: unknown, option: string): readonly ToolName[] {
  const names = allTools.map((tool) => tool.name);
  if (!Array.isArray(list) || list.length === 0) {
    throw new ConfigurationError(`${option} must list one or more of ${names.join(', ')}.`);
  }
  for (const name of list as readonly unknown[]) {
    if (typeof name === 'string' && names.includes(name)) continue;
    const meant = typeof name === 'string' ? closest(name, names) : undefined;
    throw new ConfigurationError(
      `Unknown tool ${JSON.stringify(name)}${meant ? `; did you mean ${meant}?` : ''} ` +
        `(the tools are ${names.join(', ')}).`,
    );
  }
  return list as readonly ToolName[];
}
