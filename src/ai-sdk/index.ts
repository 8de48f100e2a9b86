/**
 * The service's three operations as Vercel AI SDK tools: `create_project`, `get_project` and
 * `send_message`, the tools `agentchat/mcp` serves, run in process by `generateText`,
 * `streamText` or a `ToolLoopAgent`. Needs the optional peer dependency `ai` (6 or 7). Runs
 * wherever the client runs: Node.js, browsers, Workers.
 *
 * @example
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * import { generateText, stepCountIs } from 'ai';
 * import { Client } from 'agentchat';
 * import { agentchatTools } from 'agentchat/ai-sdk';
 *
 * const { text } = await generateText({
 *   model: openai('gpt-5'),
 *   tools: agentchatTools(new Client()),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'Create a project "Launch" bound to agent_support and ask its agent for a plan.',
 * });
 * ```
 *
 * @packageDocumentation
 * @module agentchat/ai-sdk
 */
import type { Tool } from 'ai';
import type {
  ChatReply,
  ChatSendParams,
  Client,
  CreatedProject,
  Project,
  ProjectCreateParams,
} from '../index.js';
import { modelSafeError } from '../tools/error-text.js';
import { clientOperations, type FrameworkToolsOptions, offeredTools } from '../tools/options.js';
import type { ToolSchema } from '../tools/schema.js';
import type { FrameworkToolName } from '../tools/scope.js';
import {
  type AgentChatToolApprovalConfiguration,
  type AgentChatToolApprovalFunction,
  composedApproval,
} from './tool-approval.js';

export type {
  AgentChatSingleToolApprovalFunction,
  AgentChatToolApprovalConfiguration,
  AgentChatToolApprovalContext,
  AgentChatToolApprovalFunction,
  AgentChatToolApprovalStatus,
} from './tool-approval.js';

/**
 * A tool's name: its own declaration, not agentchat/mcp's (see `FrameworkToolName`).
 *
 * @inline
 */
type ToolName = FrameworkToolName;

/**
 * Options of {@link agentchatTools} and {@link agentchatToolApproval}: which tools to offer, and
 * which of them the AI SDK asks a person to approve before running.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { type AgentChatToolsOptions, agentchatTools } from 'agentchat/ai-sdk';
 *
 * const options: AgentChatToolsOptions = { tools: ['get_project', 'send_message'] };
 * const tools = agentchatTools(new Client(), options);
 * ```
 */
export interface AgentChatToolsOptions extends FrameworkToolsOptions {}

/**
 * The tools {@link agentchatTools} returns, by name; those the options leave out are absent.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { type AgentChatToolSet, agentchatTools } from 'agentchat/ai-sdk';
 *
 * const tools: AgentChatToolSet = agentchatTools(new Client(), { readOnly: true });
 * ```
 */
// A type, not an interface: the AI SDK's `ToolSet` is a record, which only a type alias matches.
export type AgentChatToolSet = {
  /** Creates a project bound to an agent; its result is the {@link agentchat!CreatedProject}. */
  create_project?: Tool<ProjectCreateParams, CreatedProject>;
  /** Reads a project by id; its result is the {@link agentchat!Project}. */
  get_project?: Tool<Pick<Project, 'id'>, Project>;
  /** Sends a message to a project's agent; its result is the {@link agentchat!ChatReply}. */
  send_message?: Tool<ChatSendParams, ChatReply>;
};

/**
 * The service's operations as AI SDK tools over `client`, for `generateText`, `streamText` and
 * `ToolLoopAgent`: `create_project` (`{ name, agentId, metadata? }`), `get_project` (`{ id }`) and
 * `send_message` (`{ projectId, message }`), with the descriptions and schemas agentchat/mcp
 * gives models. Arguments are checked by the client's own schemas before anything is sent; a
 * result is the client's typed value, which the model reads as JSON. A failed call throws the
 * SDK's error, which the AI SDK turns into a tool error the model reads: its message (never the
 * key). The call's `abortSignal` cancels the request in flight.
 *
 * Offered every tool (no `tools`, no `readOnly`), the set it returns is typed with all three
 * present, so the AI SDK's types of their calls and results (AI SDK 6's in particular) hold no
 * `undefined`; with `tools` or `readOnly` it is an {@link AgentChatToolSet}, whose tools may be
 * absent.
 *
 * With `needsApproval`, the tools named carry the AI SDK's `needsApproval`: the loop stops at a
 * `tool-approval-request` and sends nothing until a `tool-approval-response` approves the call.
 * AI SDK 7 prefers approval configured on the call or agent, where your own `toolApproval`
 * overrides the tools' `needsApproval`: {@link agentchatToolApproval} gives agentchat's rule in
 * that form, composed with yours.
 *
 * Needs the optional peer dependency `ai` (6 or 7).
 *
 * @throws {@link agentchat!ConfigurationError} when `client` is not a {@link agentchat!Client}, an
 * option is unknown (with the one probably meant), or `tools` or `needsApproval` names an unknown
 * tool or, with `readOnly`, a tool that changes something.
 * @example
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * import { generateText, stepCountIs } from 'ai';
 * import { Client } from 'agentchat';
 * import { agentchatTools } from 'agentchat/ai-sdk';
 *
 * const { text } = await generateText({
 *   model: openai('gpt-5'),
 *   tools: agentchatTools(new Client(), { needsApproval: ['create_project'] }),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'What does the agent of project proj_123 suggest next?',
 * });
 * ```
 */
export function agentchatTools(
  client: Client,
  options?: AgentChatToolsOptions & { tools?: undefined; readOnly?: false },
): Required<AgentChatToolSet>;
export function agentchatTools(client: Client, options?: AgentChatToolsOptions): AgentChatToolSet;
export function agentchatTools(client: Client, options?: AgentChatToolsOptions): AgentChatToolSet {
  const operations = clientOperations('agentchat/ai-sdk', client);
  const tools: Record<string, Tool> = {};
  for (const { tool, needsApproval } of offeredTools('agentchat/ai-sdk', options)) {
    tools[tool.name] = {
      description: tool.description,
      inputSchema: withOpenObjects(tool.inputSchema),
      outputSchema: tool.outputSchema,
      needsApproval,
      execute: async (input: unknown, { abortSignal }: { abortSignal?: AbortSignal }) => {
        try {
          return await tool.call(operations, input, abortSignal);
        } catch (error) {
          throw modelSafeError(error);
        }
      },
    };
  }
  return tools;
}

/**
 * The AI SDK 7 `toolApproval` of `generateText`, `streamText` or a `ToolLoopAgent` that asks a
 * person before the tools `needsApproval` names run, among the tools the options offer.
 *
 * Alone, it is the object form (`{ create_project: 'user-approval' }`), to spread beside the
 * statuses of tools of your own. The tools {@link agentchatTools} makes carry `needsApproval`
 * themselves, which AI SDK 6 and 7 both honour, but AI SDK 7 reads a tool's `needsApproval` only
 * when `toolApproval` says nothing of that tool: a function asked about every call, or an object
 * with an entry for the tool, decides alone.
 *
 * Given your own `toolApproval` as `approval` (a function, or an object), it returns one function
 * that asks yours about every call and holds the tools `needsApproval` names to agentchat's rule:
 * a person approves each of their calls unless yours denies it (`'denied'` stands, and so does
 * your own `'user-approval'` with its reason; an `'approved'` or `'not-applicable'` becomes
 * `'user-approval'`). Your decisions about every other tool stand as they are; with the object
 * form, a tool it leaves out keeps its own `needsApproval`, as the AI SDK would read it.
 *
 * @throws {@link agentchat!ConfigurationError} for the options {@link agentchatTools} refuses, or an
 * `approval` that is neither a function nor an object.
 * @example
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * import { generateText, stepCountIs } from 'ai';
 * import { Client } from 'agentchat';
 * import { agentchatToolApproval, agentchatTools } from 'agentchat/ai-sdk';
 *
 * const options = { needsApproval: ['create_project', 'send_message'] } as const;
 * const result = await generateText({
 *   model: openai('gpt-5'),
 *   tools: agentchatTools(new Client(), options),
 *   // Your own rule for every call; create_project and send_message still wait for a person.
 *   toolApproval: agentchatToolApproval(options, ({ toolCall }) =>
 *     toolCall.toolName === 'get_project' ? 'approved' : 'not-applicable',
 *   ),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'Create a project "Launch" bound to agent_support.',
 * });
 * ```
 */
export function agentchatToolApproval(
  options: AgentChatToolsOptions,
): Partial<Record<ToolName, 'user-approval'>>;
export function agentchatToolApproval(
  options: AgentChatToolsOptions,
  approval: AgentChatToolApprovalConfiguration,
): AgentChatToolApprovalFunction;
export function agentchatToolApproval(
  options: AgentChatToolsOptions,
  approval?: AgentChatToolApprovalConfiguration,
): Partial<Record<ToolName, 'user-approval'>> | AgentChatToolApprovalFunction {
  const approvals: Partial<Record<ToolName, 'user-approval'>> = {};
  for (const { tool, needsApproval } of offeredTools('agentchat/ai-sdk', options)) {
    if (needsApproval) approvals[tool.name as ToolName] = 'user-approval';
  }
  return approval === undefined
    ? approvals
    : composedApproval(new Set(Object.keys(approvals)), approval);
}

/**
 * `schema` with each free-form object property (`metadata`: an object with no `properties`)
 * saying `additionalProperties: {}`. The AI SDK closes every object whose JSON Schema has no
 * schema for extra fields (`additionalProperties: false`, for strict providers), which would
 * leave a model only `{}` to give as `metadata`; a schema it keeps as it is.
 */
function withOpenObjects<Value>(schema: ToolSchema<Value>): ToolSchema<Value> {
  const standard = schema['~standard'];
  const open =
    (convert: typeof standard.jsonSchema.input) =>
    (options: Parameters<typeof convert>[0]): Record<string, unknown> => {
      const json = convert(options);
      const properties = (json.properties ?? {}) as Record<string, Record<string, unknown>>;
      for (const property of Object.values(properties)) {
        if (property.type === 'object' && property.properties === undefined) {
          property.additionalProperties = {};
        }
      }
      return json;
    };
  return {
    '~standard': {
      ...standard,
      jsonSchema: { input: open(standard.jsonSchema.input), output: standard.jsonSchema.output },
    },
  };
}
