import { ConfigurationError } from '../index.js';
import { closest } from '../internal/closest.js';
import { checkedToolNames, type ToolName, toolsInScope } from './scope.js';
import { type AgentChatTool, isClientLike, type Operations } from './table.js';

/**
 * The options every agent framework's `agentchatTools(client, options)` takes: which tools to
 * offer and which of them the framework's loop asks a person about before running.
 */
export interface FrameworkToolsOptions {
  /**
   * The tools to offer, by name. Unknown names are refused. With `readOnly: true`, only tools
   * that change nothing.
   *
   * @default all three
   */
  tools?: readonly ToolName[];
  /**
   * Offer only the tools that change nothing (`get_project`).
   *
   * @default false
   */
  readOnly?: boolean;
  /**
   * Which tools the framework's agent loop asks a person to approve before they run: `true` for
   * every tool offered, or their names. Nothing is sent for a call until it is approved.
   *
   * @default false
   */
  needsApproval?: boolean | readonly ToolName[];
}

/** One tool an entry offers, and whether the framework must ask before running it. */
export interface OfferedTool {
  // biome-ignore lint/suspicious/noExplicitAny: tools of different shapes
  readonly tool: AgentChatTool<any, any>;
  readonly needsApproval: boolean;
}

const OPTION_NAMES = ['tools', 'readOnly', 'needsApproval'];

/**
 * `client` as the operations the tools call.
 *
 * @throws {@link ConfigurationError} naming `entry` when `client` is not a client of agentchat.
 */
export function clientOperations(entry: string, client: unknown): Operations {
  if (!isClientLike(client)) {
    throw new ConfigurationError(
      `${entry}'s agentchatTools needs a Client from agentchat as its first argument, such as new Client().`,
    );
  }
  return client;
}

/**
 * The tools the options of the entry `entry` select, checked as every face checks its options.
 *
 * @throws {@link ConfigurationError} when an option is unknown (with the one probably meant) or
 * has the wrong type, or a tool name is unknown or, with `readOnly`, names a tool that changes
 * something.
 */
export function offeredTools(entry: string, options: unknown = {}): readonly OfferedTool[] {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigurationError(
      `${entry} takes its options as an object ({ tools, readOnly, needsApproval }).`,
    );
  }
  for (const name of Object.keys(options)) {
    if (OPTION_NAMES.includes(name)) continue;
    const meant = closest(name, OPTION_NAMES);
    throw new ConfigurationError(
      `Unknown option ${name} of ${entry}${meant ? `; did you mean ${meant}?` : ''} ` +
        `(the options are ${OPTION_NAMES.join(', ')}).`,
    );
  }
  const { tools, readOnly, needsApproval = false } = options as FrameworkToolsOptions;
  if (readOnly !== undefined && typeof readOnly !== 'boolean') {
    throw new ConfigurationError(`${entry}: readOnly must be true or false.`);
  }
  const approving =
    typeof needsApproval === 'boolean'
      ? needsApproval
      : checkedToolNames(needsApproval, 'needsApproval (true, false or a list of tool names)');
  return toolsInScope({ tools, readOnly }, 'tool set').map((tool) => ({
    tool,
    needsApproval:
      approving === true || (approving !== false && approving.includes(tool.name as ToolName)),
  }));
}
