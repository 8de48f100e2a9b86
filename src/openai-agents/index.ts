/**
 * The service's three operations as OpenAI Agents SDK function tools: `create_project`,
 * `get_project` and `send_message`, the tools `agentchat/mcp` serves, run in process by an
 * `Agent` and `run()`. Needs the optional peer dependency `@openai/agents` (0.20 or later).
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { Client } from 'agentchat';
 * import { agentchatTools } from 'agentchat/openai-agents';
 *
 * const agent = new Agent({
 *   name: 'Projects',
 *   instructions: 'You manage projects in the Project and Agent Chat service.',
 *   model: 'gpt-5',
 *   tools: agentchatTools(new Client()),
 * });
 * const result = await run(agent, 'Create a project "Launch" bound to agent_support.');
 * console.log(result.finalOutput);
 * ```
 *
 * @packageDocumentation
 * @module agentchat/openai-agents
 */
import { type FunctionTool, type ToolInputParameters, tool } from '@openai/agents';
import { type Client, RequestValidationError } from '../index.js';
import { toolErrorText } from '../tools/error-text.js';
import { clientOperations, type FrameworkToolsOptions, offeredTools } from '../tools/options.js';
import type { ToolSchema } from '../tools/schema.js';
import type { AgentChatTool } from '../tools/table.js';

/**
 * Options of {@link agentchatTools}: which tools to offer, and which of them the Agents SDK's run
 * stops at, as an interruption, for a person to approve.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { type AgentChatToolsOptions, agentchatTools } from 'agentchat/openai-agents';
 *
 * const options: AgentChatToolsOptions = { tools: ['get_project', 'send_message'] };
 * const tools = agentchatTools(new Client(), options);
 * ```
 */
export interface AgentChatToolsOptions extends FrameworkToolsOptions {}

/**
 * One tool {@link agentchatTools} returns: an Agents SDK function tool, for an `Agent`'s `tools`.
 * Its `execute` resolves to the client's typed value (a {@link agentchat!CreatedProject},
 * {@link agentchat!Project} or {@link agentchat!ChatReply}), which the run's tool output items
 * hold and the model reads as JSON.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { type AgentChatFunctionTool, agentchatTools } from 'agentchat/openai-agents';
 *
 * const tools: AgentChatFunctionTool[] = agentchatTools(new Client(), { readOnly: true });
 * console.log(tools.map((tool) => tool.name)); // ['get_project']
 * ```
 */
// A type alias: the Agents SDK's `FunctionTool` is one too, and an interface could not widen it.
export type AgentChatFunctionTool<Context = unknown> = FunctionTool<
  Context,
  ToolInputParameters,
  unknown
>;

/** A non-strict tool's JSON Schema, as the Agents SDK types it (it exports no name for it). */
type NonStrictParameters = Extract<ToolInputParameters, { additionalProperties: true }>;

/**
 * The service's operations as OpenAI Agents SDK function tools over `client`, for an `Agent`'s
 * `tools`: `create_project` (`{ name, agentId, metadata? }`), `get_project` (`{ id }`) and
 * `send_message` (`{ projectId, message }`), with the descriptions and schemas agentchat/mcp gives
 * models. The schemas are JSON Schema with `strict: false`: the Agents SDK's strict mode cannot
 * express `create_project`'s free-form `metadata`. Arguments are checked by the client's own
 * schemas before anything is sent; a result is the client's typed value, which the model reads
 * as JSON. A failed call reaches the model as the tool's output: the SDK error's name, message
 * and request id (never the key); any other error is told by its class alone. Aborting the run
 * (`run(agent, input, { signal })`) cancels the request in flight and ends the run with the
 * signal's reason.
 *
 * With `needsApproval`, the tools named carry the Agents SDK's `needsApproval`: the run stops
 * with an interruption in `result.interruptions` and sends nothing until `result.state.approve()`
 * approves it and `run(agent, result.state)` resumes.
 *
 * Needs the optional peer dependency `@openai/agents` (0.20 or later).
 *
 * @throws {@link agentchat!ConfigurationError} when `client` is not a {@link agentchat!Client}, an
 * option is unknown (with the one probably meant), or `tools` or `needsApproval` names an unknown
 * tool or, with `readOnly`, a tool that changes something.
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { Client } from 'agentchat';
 * import { agentchatTools } from 'agentchat/openai-agents';
 *
 * const agent = new Agent({
 *   name: 'Projects',
 *   model: 'gpt-5',
 *   tools: agentchatTools(new Client(), { needsApproval: ['create_project'] }),
 * });
 * let result = await run(agent, 'Create a project "Launch" bound to agent_support.');
 * for (const interruption of result.interruptions) result.state.approve(interruption);
 * result = await run(agent, result.state);
 * ```
 */
export function agentchatTools<Context = unknown>(
  client: Client,
  options?: AgentChatToolsOptions,
): AgentChatFunctionTool<Context>[] {
  const operations = clientOperations('agentchat/openai-agents', client);
  return offeredTools('agentchat/openai-agents', options).map(
    ({ tool: agentchatTool, needsApproval }) =>
      tool<NonStrictParameters, Context, unknown>({
        name: agentchatTool.name,
        description: agentchatTool.description,
        parameters: parametersOf(agentchatTool),
        strict: false,
        needsApproval,
        execute: (input, _context, details) =>
          agentchatTool.call(operations, checkedInput(agentchatTool, input), details?.signal),
        // The Agents SDK's own handler tells the model only that something failed; the SDK's
        // errors say what happened and never hold the key, so the model reads them.
        errorFunction: (_context, error) => toolErrorText(error),
      }),
  );
}

/**
 * The tool's input as the JSON Schema the model is given, draft 7, which every provider the
 * Agents SDK reaches reads. The objects stay as the table closes them (no field the client would
 * refuse); the Agents SDK's type expects `additionalProperties: true` of every non-strict schema,
 * but sends the schema as it is.
 */
// biome-ignore lint/suspicious/noExplicitAny: tools of different shapes
function parametersOf(agentchatTool: AgentChatTool<any, any>): NonStrictParameters {
  const { $schema: _dialect, ...schema } = agentchatTool.inputSchema['~standard'].jsonSchema.input({
    target: 'draft-07',
  });
  return schema as NonStrictParameters;
}

/** What a tool schema's `validate` gives: the table's schemas check synchronously (schema.ts). */
type CheckResult<Input> = Exclude<
  ReturnType<ToolSchema<Input>['~standard']['validate']>,
  PromiseLike<unknown>
>;

/**
 * `input` checked by the tool's schema, the client's own: the Agents SDK parses a non-strict
 * tool's arguments as JSON without checking them, and the model may send any JSON.
 *
 * @throws {@link RequestValidationError} naming each refused field, before anything is sent.
 */
// biome-ignore lint/suspicious/noExplicitAny: tools of different shapes
function checkedInput<Input>(agentchatTool: AgentChatTool<Input, any>, input: unknown): Input {
  const checked = agentchatTool.inputSchema['~standard'].validate(input) as CheckResult<Input>;
  if (checked.issues === undefined) return checked.value;
  throw new RequestValidationError(
    `${agentchatTool.name} arguments`,
    checked.issues.map(({ message, path = [] }) => ({
      path: path.map((key) => String(typeof key === 'object' ? key.key : key)).join('.'),
      message,
    })),
  );
}
