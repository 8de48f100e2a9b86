/**
 * The service's three operations as Mastra tools: `create_project`, `get_project` and
 * `send_message`, the tools `agentchat/mcp` serves, run in process by a Mastra `Agent`. Needs the
 * optional peer dependency `@mastra/core` (1.58 or later in 1.x).
 *
 * @example
 * ```ts
 * import { Agent } from '@mastra/core/agent';
 * import { Client } from 'agentchat';
 * import { agentchatTools } from 'agentchat/mastra';
 *
 * const agent = new Agent({
 *   id: 'projects',
 *   name: 'Projects',
 *   instructions: 'You manage projects of the Project and Agent Chat service.',
 *   model: 'openai/gpt-5',
 *   tools: agentchatTools(new Client()),
 * });
 * const { text } = await agent.generate(
 *   'Create a project "Launch" bound to agent_support and ask its agent for a plan.',
 * );
 * ```
 *
 * @packageDocumentation
 * @module agentchat/mastra
 */
import { createTool, type Tool, type ToolExecutionContext } from '@mastra/core/tools';
import {
  type ChatReply,
  type ChatSendParams,
  type Client,
  type CreatedProject,
  isAgentChatError,
  type Project,
  type ProjectCreateParams,
} from '../index.js';
import { modelSafeError, toolErrorText } from '../tools/error-text.js';
import { clientOperations, type FrameworkToolsOptions, offeredTools } from '../tools/options.js';

/**
 * Options of {@link agentchatTools}: which tools to offer, and which of them a Mastra agent
 * suspends on until a person approves the call.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { type AgentChatToolsOptions, agentchatTools } from 'agentchat/mastra';
 *
 * const options: AgentChatToolsOptions = { tools: ['get_project', 'send_message'] };
 * const tools = agentchatTools(new Client(), options);
 * ```
 */
export interface AgentChatToolsOptions extends FrameworkToolsOptions {}

/**
 * One of the tools {@link agentchatTools} returns: a Mastra tool named `Name` that takes `Input`
 * and gives the SDK's typed `Output`.
 *
 * @example
 * ```ts
 * import type { CreatedProject, ProjectCreateParams } from 'agentchat';
 * import type { AgentChatMastraTool } from 'agentchat/mastra';
 *
 * type CreateProjectTool = AgentChatMastraTool<'create_project', ProjectCreateParams, CreatedProject>;
 * ```
 */
export type AgentChatMastraTool<Name extends string, Input, Output> = Tool<
  Input,
  Output,
  unknown,
  unknown,
  ToolExecutionContext,
  Name
>;

/**
 * The tools {@link agentchatTools} returns, by name; those the options leave out are absent.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { type AgentChatToolSet, agentchatTools } from 'agentchat/mastra';
 *
 * const tools: AgentChatToolSet = agentchatTools(new Client(), { readOnly: true });
 * ```
 */
// A type, not an interface: an agent's `tools` is a record, which only a type alias matches.
export type AgentChatToolSet = {
  /** Creates a project bound to an agent; its result is the {@link agentchat!CreatedProject}. */
  create_project?: AgentChatMastraTool<'create_project', ProjectCreateParams, CreatedProject>;
  /** Reads a project by id; its result is the {@link agentchat!Project}. */
  get_project?: AgentChatMastraTool<'get_project', Pick<Project, 'id'>, Project>;
  /** Sends a message to a project's agent; its result is the {@link agentchat!ChatReply}. */
  send_message?: AgentChatMastraTool<'send_message', ChatSendParams, ChatReply>;
};

/**
 * The service's operations as Mastra tools over `client`, for an `Agent`'s `tools`:
 * `create_project` (`{ name, agentId, metadata? }`), `get_project` (`{ id }`) and `send_message`
 * (`{ projectId, message }`), with the descriptions and schemas agentchat/mcp gives models.
 * Mastra checks arguments with the client's own schemas before anything is sent, and tells the
 * model what to fix; a result is the client's typed value, which the model reads as JSON. A
 * failed call becomes Mastra's tool error, which the model reads as the error's class and message
 * (`NotFoundError: ...`, with the request id, never the key); the error Mastra reports has the
 * SDK's error as its `cause`, its message that text. The `abortSignal` of `agent.generate` or
 * `agent.stream` cancels the request in flight.
 *
 * The tools are not strict (`strict: false`): Mastra hands the provider their JSON Schema as it
 * is, so `create_project`'s `metadata` stays any JSON object the model writes. (Mastra's OpenAI
 * schema layer would close it to `{}`; before `@mastra/core` 1.58 Mastra applies that layer
 * whatever the tool says.)
 *
 * With `needsApproval`, the tools named carry Mastra's `requireApproval`: the run suspends at the
 * call (`finishReason: 'suspended'`, a `tool-call-approval` chunk in a stream) and sends nothing
 * until `agent.approveToolCall` or `agent.approveToolCallGenerate` approves it
 * (`declineToolCall` refuses it). Resuming a run needs storage on the agent's `Mastra` instance.
 *
 * Needs the optional peer dependency `@mastra/core` (1.58 or later in 1.x: the first to send a
 * tool that is not strict to every provider with its own schema).
 *
 * @throws {@link agentchat!ConfigurationError} when `client` is not a {@link agentchat!Client}, an
 * option is unknown (with the one probably meant), or `tools` or `needsApproval` names an unknown
 * tool or, with `readOnly`, a tool that changes something.
 * @example
 * ```ts
 * import { Agent } from '@mastra/core/agent';
 * import { Client } from 'agentchat';
 * import { agentchatTools } from 'agentchat/mastra';
 *
 * const agent = new Agent({
 *   id: 'projects',
 *   name: 'Projects',
 *   instructions: 'You manage projects of the Project and Agent Chat service.',
 *   model: 'openai/gpt-5',
 *   tools: agentchatTools(new Client(), { needsApproval: ['create_project'] }),
 * });
 * const { text } = await agent.generate('What does the agent of project proj_123 suggest next?');
 * ```
 */
export function agentchatTools(client: Client, options?: AgentChatToolsOptions): AgentChatToolSet {
  const operations = clientOperations('agentchat/mastra', client);
  const tools: Record<string, unknown> = {};
  for (const { tool, needsApproval } of offeredTools('agentchat/mastra', options)) {
    tools[tool.name] = createTool({
      id: tool.name,
      // For people (Mastra's playground, MCP hosts); models read the id and the description.
      title: tool.title,
      description: tool.description,
      // The table's schemas are Standard JSON Schemas, which Mastra validates and converts itself.
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      requireApproval: needsApproval,
      // Mastra's OpenAI schema layer closes every object for OpenAI's strict mode, which leaves a
      // model only {} to write as `metadata`. `strict: false` skips Mastra's schema layers (from
      // @mastra/core 1.58) and tells the provider so: the model gets the table's schema as it is.
      strict: false,
      // What Mastra's MCP server would tell hosts of the tool, were the agent's tools served again.
      mcp: { annotations: tool.annotations },
      execute: async (input, { abortSignal }) => {
        try {
          return await tool.call(operations, input, abortSignal);
        } catch (error) {
          throw modelFacingError(error);
        }
      },
    });
  }
  return tools as AgentChatToolSet;
}

/**
 * What a tool throws for Mastra, which gives the model only the message of what a tool throws.
 * An SDK error is thrown as itself with the message every face gives models (its class, its
 * message, the request id): an object whose prototype is that error, so that the application
 * still finds it as Mastra's error's `cause` (`instanceof NotFoundError`, `status`, `requestId`).
 */
function modelFacingError(error: unknown): unknown {
  if (!isAgentChatError(error)) return modelSafeError(error);
  return Object.create(error, {
    message: { value: toolErrorText(error), writable: true, configurable: true },
  });
}
