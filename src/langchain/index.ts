/**
 * The service's three operations as LangChain.js tools: `create_project`, `get_project` and
 * `send_message`, the tools `agentchat/mcp` serves, run in process by `createAgent` (package
 * `langchain`) or by your own loop over `model.bindTools`. Needs the optional peer dependency
 * `@langchain/core` (1.x).
 *
 * @example
 * ```ts
 * import { ChatOpenAI } from '@langchain/openai';
 * import { Client } from 'agentchat';
 * import { agentchatTools } from 'agentchat/langchain';
 * import { createAgent } from 'langchain';
 *
 * const agent = createAgent({
 *   model: new ChatOpenAI({ model: 'gpt-5' }),
 *   tools: agentchatTools(new Client()),
 * });
 * const { messages } = await agent.invoke({
 *   messages: [{ role: 'user', content: 'Create a project "Launch" bound to agent_support.' }],
 * });
 * ```
 *
 * @packageDocumentation
 * @module agentchat/langchain
 */
import { ToolMessage } from '@langchain/core/messages';
import { type DynamicStructuredTool, type ToolRunnableConfig, tool } from '@langchain/core/tools';
import { type Client, ConfigurationError } from '../index.js';
import { modelSafeError, toolErrorText } from '../tools/error-text.js';
import { clientOperations, type FrameworkToolsOptions, offeredTools } from '../tools/options.js';
import type { FrameworkToolName } from '../tools/scope.js';
import type { AgentChatTool, Operations } from '../tools/table.js';

/**
 * A tool's name: its own declaration, not agentchat/mcp's (see `FrameworkToolName`).
 *
 * @inline
 */
type ToolName = FrameworkToolName;

const ENTRY = 'agentchat/langchain';

/**
 * Options of {@link agentchatTools}: which tools to offer. LangChain approves tool calls at the
 * agent, not in a tool, so `needsApproval` belongs to {@link agentchatInterruptOn}.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { type AgentChatToolsOptions, agentchatTools } from 'agentchat/langchain';
 *
 * const options: AgentChatToolsOptions = { tools: ['get_project', 'send_message'] };
 * const tools = agentchatTools(new Client(), options);
 * ```
 */
export interface AgentChatToolsOptions extends Omit<FrameworkToolsOptions, 'needsApproval'> {
  /**
   * Refused unless `false`: a LangChain tool cannot ask a person before it runs. Give
   * `createAgent` the `humanInTheLoopMiddleware` with
   * `interruptOn: agentchatInterruptOn({ needsApproval })` instead.
   *
   * @default false
   */
  needsApproval?: false;
}

/**
 * Options of {@link agentchatInterruptOn}: the options of {@link agentchatTools}, and which of
 * those tools a person approves before they run (`true` for every tool offered, or their names).
 *
 * @example
 * ```ts
 * import { type AgentChatApprovalOptions, agentchatInterruptOn } from 'agentchat/langchain';
 *
 * const options: AgentChatApprovalOptions = { needsApproval: ['create_project'] };
 * const interruptOn = agentchatInterruptOn(options);
 * ```
 */
export interface AgentChatApprovalOptions extends FrameworkToolsOptions {}

/**
 * The service's operations as LangChain structured tools over `client`, for `createAgent` and
 * `model.bindTools`: `create_project` (`{ name, agentId, metadata? }`), `get_project` (`{ id }`)
 * and `send_message` (`{ projectId, message }`), with the descriptions and JSON Schemas
 * agentchat/mcp gives models.
 *
 * Called with a tool call (as `createAgent`'s tool node and `tool.invoke(toolCall)` call it), a
 * tool returns LangChain's `ToolMessage`: on success the result as JSON for the model, and the
 * client's typed value as its `artifact`; when the call fails, `status: 'error'` and the SDK
 * error's message (its class and request id, never the key) for the model to read, where any
 * other error is told by its class alone. Called with bare arguments, it returns the typed value
 * or throws the error. Arguments the schema allows are checked again by the client before
 * anything is sent. The `signal` of the agent's or the tool's invoke config cancels the request
 * in flight.
 *
 * LangChain approves calls at the agent, not in a tool: to have a person approve a tool before
 * it runs, give `createAgent` the `humanInTheLoopMiddleware` with
 * {@link agentchatInterruptOn}'s `interruptOn` and a checkpointer.
 *
 * Needs the optional peer dependency `@langchain/core` (1.x).
 *
 * @throws {@link agentchat!ConfigurationError} when `client` is not a {@link agentchat!Client}, an
 * option is unknown (with the one probably meant), `needsApproval` is given (with the middleware
 * to use instead), or `tools` names an unknown tool or, with `readOnly`, a tool that changes
 * something.
 * @example
 * ```ts
 * import { ChatOpenAI } from '@langchain/openai';
 * import { Client } from 'agentchat';
 * import { agentchatTools } from 'agentchat/langchain';
 * import { createAgent } from 'langchain';
 *
 * const agent = createAgent({
 *   model: new ChatOpenAI({ model: 'gpt-5' }),
 *   tools: agentchatTools(new Client(), { readOnly: true }),
 * });
 * ```
 */
export function agentchatTools(
  client: Client,
  options?: AgentChatToolsOptions,
): DynamicStructuredTool[] {
  const operations = clientOperations(ENTRY, client);
  const offered = offeredTools(ENTRY, options);
  if (offered.some(({ needsApproval }) => needsApproval)) {
    throw new ConfigurationError(
      `${ENTRY}'s tools cannot ask for approval themselves: LangChain approves tool calls at the ` +
        'agent. Drop needsApproval here and give createAgent ' +
        'humanInTheLoopMiddleware({ interruptOn: agentchatInterruptOn({ needsApproval }) }) and a ' +
        'checkpointer.',
    );
  }
  return offered.map(({ tool: agentchatTool }) => langchainTool(agentchatTool, operations));
}

/**
 * The `interruptOn` of LangChain's `humanInTheLoopMiddleware` (package `langchain`) that stops
 * `createAgent`'s loop before the tools `needsApproval` names run, among the tools the options
 * offer: `true` for each, which lets a person approve, edit or reject the call. Nothing is sent
 * until the run is resumed with an approval (`new Command({ resume: { decisions: [{ type:
 * 'approve' }] } })`); the middleware needs the agent to have a checkpointer.
 *
 * @throws {@link agentchat!ConfigurationError} when an option is unknown (with the one probably
 * meant), or `tools` or `needsApproval` names an unknown tool or, with `readOnly`, a tool that
 * changes something.
 * @example
 * ```ts
 * import { agentchatInterruptOn } from 'agentchat/langchain';
 *
 * // { create_project: true, send_message: true }: give it to createAgent's
 * // humanInTheLoopMiddleware({ interruptOn }), beside a checkpointer (docs/agent-frameworks.md).
 * const interruptOn = agentchatInterruptOn({ needsApproval: ['create_project', 'send_message'] });
 * ```
 */
export function agentchatInterruptOn(
  options: AgentChatApprovalOptions,
): Partial<Record<ToolName, true>> {
  const interruptOn: Partial<Record<ToolName, true>> = {};
  for (const { tool: agentchatTool, needsApproval } of offeredTools(ENTRY, options)) {
    if (needsApproval) interruptOn[agentchatTool.name as ToolName] = true;
  }
  return interruptOn;
}

/** One tool of the table as a LangChain tool over `operations`. */
function langchainTool(
  // biome-ignore lint/suspicious/noExplicitAny: tools of different shapes
  agentchatTool: AgentChatTool<any, any>,
  operations: Operations,
): DynamicStructuredTool {
  const { name } = agentchatTool;
  const run = async (input: unknown, config: ToolRunnableConfig | undefined) => {
    const toolCallId = config?.toolCall?.id;
    try {
      const result: object = await agentchatTool.call(operations, input, config?.signal);
      if (toolCallId === undefined) return result;
      return new ToolMessage({
        content: JSON.stringify(result),
        artifact: result,
        tool_call_id: toolCallId,
        name,
        status: 'success',
      });
    } catch (error) {
      // Without a tool call (arguments alone), or cancelled, the caller gets the error itself.
      if (toolCallId === undefined || config?.signal?.aborted) throw modelSafeError(error);
      // An answer rather than a throw: createAgent ends the run on what a tool throws through any
      // wrapToolCall middleware (retries, logging) unless handleToolErrors is true.

      return new ToolMessage({
        content: toolErrorText(error),
        tool_call_id: toolCallId,
        name,
        status: 'error',
      });
    }
  };
  return tool(run, {
    name,
    description: agentchatTool.description,
    // LangChain validates the arguments by this JSON Schema, and gives it to the model.
    schema: jsonSchemaOf(agentchatTool),
    // Which schema field is wrong, for the model to correct itself.
    verboseParsingErrors: true,
  }) as DynamicStructuredTool;
}

/**
 * The tool's input as a plain JSON Schema (draft 7), which LangChain gives every provider as it
 * is. Not zod's object itself: that carries a hidden `~standard` of zod's, which LangChain
 * prefers and converts again through zod, failing for ChatOpenAI ("Custom types cannot be
 * represented in JSON Schema") or losing the descriptions and constraints. The spread copy leaves
 * that hidden property behind.
 */
// biome-ignore lint/suspicious/noExplicitAny: tools of different shapes
function jsonSchemaOf(agentchatTool: AgentChatTool<any, any>): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = agentchatTool.inputSchema['~standard'].jsonSchema.input({
    target: 'draft-07',
  });
  return schema;
}
