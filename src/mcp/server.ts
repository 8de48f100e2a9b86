import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { type Client, ConfigurationError, VERSION } from '../index.js';
import { isClientLike } from '../tools/table.js';
import { registerToolWithView, registerViews } from './apps/register.js';
import { AGENTCHAT_ICONS } from './icons.js';
import { type McpToolScope, type ToolName, toolsInScope } from './scope.js';
import { toolError, toolSuccess } from './tool-result.js';
import type { AgentChatTool, Operations } from './tools.js';
import { withTraceContext } from './trace-context.js';

/**
 * Options of {@link createMcpServer}.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { createMcpServer, type McpServerOptions } from 'agentchat/mcp';
 *
 * const options: McpServerOptions = { client: new Client({ maxRetries: 4 }) };
 * const server = createMcpServer(options);
 * ```
 * @typeParam ReadOnly - the type of `readOnly`, inferred from a call (see {@link McpToolScope})
 * @typeParam Tools - the type of `tools`, inferred from a call
 */
export interface McpServerOptions<
  ReadOnly extends boolean = boolean,
  Tools extends readonly ToolName[] = readonly ToolName[],
> extends McpToolScope<ReadOnly, Tools> {
  /**
   * The client every tool calls. Its key, base URL, retries, timeouts and logger apply to the
   * tools' requests.
   *
   * @default none: required
   */
  client: Client;
  /**
   * Offer the MCP Apps views (the `io.modelcontextprotocol/ui` extension): `send_message`'s
   * reply with its suggestions as buttons (`ui://agentchat/chat.html`), and `create_project`'s
   * and `get_project`'s project as a card (`ui://agentchat/project.html`), for hosts that render
   * them. Hosts without the extension see the same results either way. Only the views of the
   * tools offered are: with `readOnly`, the project's.
   *
   * @default true
   */
  apps?: boolean;
}

/** What each tool is for, in the instructions the model reads when it connects. */
const TOOL_ROLES: Readonly<Record<string, string>> = {
  create_project: 'create_project makes a project and returns its id (proj_<id>)',
  get_project: 'get_project reads a project by id',
  send_message: "send_message sends a message to a project's agent and returns its reply",
};

/**
 * Read by the model when it connects: what the tools offered are for and how they fit together.
 * A scoped server names only its own, so that the model never looks for one it lacks.
 */
function instructionsFor(tools: readonly { name: string }[]): string {
  return (
    'Tools for the Project and Agent Chat service, where each project is bound to one AI agent. ' +
    `${tools.map((tool) => TOOL_ROLES[tool.name]).join('; ')}. A failed call comes back as a ` +
    'tool error whose text says what went wrong and gives a request id for support.'
  );
}

/**
 * Creates an MCP server whose tools are the service's three operations, called through `client`:
 * `create_project` (`{ name, agentId, metadata? }`), `get_project` (`{ id }`) and `send_message`
 * (`{ projectId, message }`). Arguments are checked by the client's own schemas before anything is
 * sent; each result is the client's typed value as `structuredContent`, with a short text; a
 * failed call is a tool error (`isError: true`) whose text is the error's message, request id
 * included. `tools` and `readOnly` narrow the tools offered. Hosts that render MCP Apps show
 * each result in a view of its own (see {@link McpServerOptions.apps}), which `apps: false` leaves
 * out. Connect it to any transport of `@modelcontextprotocol/server`, or run the
 * `agentchat-mcp` bin, which serves it on stdio.
 *
 * Needs the optional peer dependency `@modelcontextprotocol/server` (2.x).
 *
 * @throws {@link agentchat!ConfigurationError} (an {@link agentchat!AgentChatError}) when `client`
 * is not a {@link agentchat!Client}, or `tools` names an unknown tool (with the one probably
 * meant) or, with `readOnly`, a tool that changes something. Written out in the call, the latter
 * does not compile either (see {@link agentchat/mcp!ScopedToolList}).
 * @typeParam ReadOnly - the type of `readOnly`, inferred from the call: there is no need to give
 * it
 * @typeParam Tools - the type of `tools`, inferred from the call
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { createMcpServer } from 'agentchat/mcp';
 * import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
 *
 * const server = createMcpServer({ client: new Client() });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer<
  ReadOnly extends boolean = boolean,
  const Tools extends readonly ToolName[] = readonly ToolName[],
>(options: McpServerOptions<ReadOnly, Tools>): McpServer {
  const client = options?.client;
  if (!isClientLike(client)) {
    throw new ConfigurationError(
      'createMcpServer needs { client }: a Client from agentchat, such as new Client().',
    );
  }
  return serverWithTools(
    client,
    toolsInScope(options),
    checkedApps(options.apps, 'createMcpServer'),
  );
}

/**
 * The `apps` option given to `factory`, `true` when left out.
 *
 * @throws {@link agentchat!ConfigurationError} when it is not a boolean.
 */
export function checkedApps(apps: unknown, factory: string): boolean {
  if (apps === undefined) return true;
  if (typeof apps !== 'boolean') {
    throw new ConfigurationError(
      `${factory}: apps must be true or false (whether to offer the MCP Apps views), not a ${typeof apps}.`,
    );
  }
  return apps;
}

/**
 * An MCP server offering `tools` over `operations`, with their views unless `apps` is false; the
 * HTTP handler makes one per request.
 */
export function serverWithTools(
  operations: Operations,
  // biome-ignore lint/suspicious/noExplicitAny: tools of different shapes
  tools: readonly AgentChatTool<any, any>[],
  apps = true,
): McpServer {
  const server = new McpServer(
    {
      name: 'agentchat',
      title: 'Project and Agent Chat',
      version: VERSION,
      icons: [...AGENTCHAT_ICONS],
    },
    { capabilities: { tools: {} }, instructions: instructionsFor(tools) },
  );
  for (const tool of tools) registerTool(server, operations, tool, apps);
  if (apps) registerViews(server, tools);
  return server;
}

function registerTool<Input, Output extends object>(
  server: McpServer,
  client: Operations,
  tool: AgentChatTool<Input, Output>,
  apps: boolean,
): void {
  const { name, title, description, annotations, inputSchema, outputSchema } = tool;
  registerToolWithView(
    server,
    apps,
    name,
    { title, description, annotations, inputSchema, outputSchema, icons: [...AGENTCHAT_ICONS] },
    async (input: Input, context: ServerContext) => {
      try {
        // The host's trace context, when it sends one, is the parent of the call's spans.
        const { _meta: meta, signal } = context.mcpReq;
        const output = await withTraceContext(meta, () => tool.call(client, input, signal));
        return toolSuccess(output, tool.summarize(output));
      } catch (error) {
        return toolError(error);
      }
    },
  );
}

export { isClientLike };
