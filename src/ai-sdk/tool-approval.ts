/**
 * agentchat's approval rule as AI SDK 7's `toolApproval` of a call or an agent, alone or composed
 * with the application's own. The AI SDK asks a `toolApproval` function about every tool call and
 * reads no tool's `needsApproval` beside it, so a function of the application's own would let
 * the tools `needsApproval` names run unasked; composed here, they never do. The types are this
 * entry's own, shaped as AI SDK 7's: the entry also serves AI SDK 6, which has none of them.
 */
import { ConfigurationError } from '../index.js';

/**
 * What AI SDK 7's `toolApproval` decides for one tool call: `'user-approval'` asks a person,
 * `'approved'` and `'denied'` decide at once, `'not-applicable'` (or `undefined`) runs the tool
 * unasked; each also as an object with a `reason`. The AI SDK's `ToolApprovalStatus`.
 *
 * @example
 * ```ts
 * import type { AgentChatToolApprovalStatus } from 'agentchat/ai-sdk';
 *
 * const status: AgentChatToolApprovalStatus = { type: 'denied', reason: 'read-only session' };
 * ```
 */
export type AgentChatToolApprovalStatus =
  | undefined
  | 'not-applicable'
  | 'approved'
  | 'denied'
  | 'user-approval'
  | {
      /** The tool runs unasked. */
      type: 'not-applicable';
      /** Not given: nothing is decided. */
      reason?: never;
    }
  | {
      /** The tool runs, approved without asking. */
      type: 'approved';
      /** Why, shown on the approval response. */
      reason?: string;
    }
  | {
      /** The tool does not run. */
      type: 'denied';
      /** Why, shown on the approval response. */
      reason?: string;
    }
  | {
      /** A person is asked first. */
      type: 'user-approval';
      /** Why, shown to the person on the approval request. */
      reason?: string;
    };

/**
 * What AI SDK 7 tells a `toolApproval` function about a tool call: the call (its tool's name,
 * id and input), the tools offered, the messages that led to it, and the contexts.
 *
 * @example
 * ```ts
 * import type { AgentChatToolApprovalContext } from 'agentchat/ai-sdk';
 *
 * const onlyReads = ({ toolCall }: AgentChatToolApprovalContext) =>
 *   toolCall.toolName === 'get_project' ? 'approved' : 'user-approval';
 * ```
 */
export interface AgentChatToolApprovalContext {
  /** The tool call to decide about. */
  readonly toolCall: {
    /** The name the tool is offered under, such as `create_project`. */
    readonly toolName: string;
    /** The call's id, as the model gave it. */
    readonly toolCallId: string;
    /** The call's arguments, checked against the tool's input schema. */
    readonly input: unknown;
  };
  /** Every tool offered to the model, by name. */
  readonly tools?: Readonly<Record<string, unknown>> | undefined;
  /** The messages sent to the model for the answer that made the call. */
  readonly messages: readonly unknown[];
  /** The tools' context, by tool name. */
  readonly toolsContext?: unknown;
  /** The call's runtime context. */
  readonly runtimeContext?: unknown;
}

/**
 * AI SDK 7's `toolApproval` as a function (its `GenericToolApprovalFunction`): asked about every
 * tool call. `agentchatToolApproval(options, yours)` composes yours with agentchat's rule into one.
 *
 * @example
 * ```ts
 * import type { AgentChatToolApprovalFunction } from 'agentchat/ai-sdk';
 *
 * const approval: AgentChatToolApprovalFunction = ({ toolCall }) =>
 *   toolCall.toolName.startsWith('delete_') ? 'denied' : 'not-applicable';
 * ```
 */
// A method's type, whose parameter TypeScript checks both ways: a function typed with the AI SDK's
// own, narrower call (`TypedToolCall<typeof tools>`) is taken too.
export type AgentChatToolApprovalFunction = {
  /** Decides about one tool call. */
  approve(
    context: AgentChatToolApprovalContext,
  ): AgentChatToolApprovalStatus | PromiseLike<AgentChatToolApprovalStatus>;
}['approve'];

/**
 * A function deciding about the calls of one tool, as the object form of AI SDK 7's
 * `toolApproval` takes it (its `SingleToolApprovalFunction`).
 *
 * @example
 * ```ts
 * import type { AgentChatSingleToolApprovalFunction } from 'agentchat/ai-sdk';
 *
 * const longMessages: AgentChatSingleToolApprovalFunction = (input: { message: string }) =>
 *   input.message.length > 500 ? 'user-approval' : 'approved';
 * ```
 */
export type AgentChatSingleToolApprovalFunction = {
  /** Decides about one call of the tool, from its input. */
  approve(
    input: never,
    options: {
      /** The call's id, as the model gave it. */
      readonly toolCallId: string;
      /** The messages sent to the model for the answer that made the call. */
      readonly messages: readonly unknown[];
      /** The tool's context. */
      readonly toolContext: unknown;
      /** The call's runtime context. */
      readonly runtimeContext: unknown;
    },
  ): AgentChatToolApprovalStatus | PromiseLike<AgentChatToolApprovalStatus>;
}['approve'];

/**
 * The application's own `toolApproval` of AI SDK 7, in either form: a function asked about every
 * call, or an object of a status or a function for each tool named (a tool it leaves out keeps its
 * own `needsApproval`).
 *
 * @example
 * ```ts
 * import type { AgentChatToolApprovalConfiguration } from 'agentchat/ai-sdk';
 *
 * const mine: AgentChatToolApprovalConfiguration = { delete_everything: 'denied' };
 * ```
 */
export type AgentChatToolApprovalConfiguration =
  | AgentChatToolApprovalFunction
  | {
      /** What to decide about a tool's calls, by its name. */
      readonly [tool: string]:
        | AgentChatToolApprovalStatus
        | AgentChatSingleToolApprovalFunction
        | undefined;
    };

/** A status read as the AI SDK reads it: always an object. */
type Decision = Exclude<AgentChatToolApprovalStatus, string | undefined>;

/**
 * The function that asks `approval` (the application's own) about each call, then holds the
 * tools in `named` to agentchat's rule: a person approves each call, unless `approval` denies it
 * outright. Its `'approved'` or `'not-applicable'` for one of them becomes `'user-approval'`; its
 * `'denied'` stands, and so does its own `'user-approval'`, reason included.
 */
export function composedApproval(
  named: ReadonlySet<string>,
  approval: AgentChatToolApprovalConfiguration,
): AgentChatToolApprovalFunction {
  if (typeof approval !== 'function' && (typeof approval !== 'object' || approval === null)) {
    throw new ConfigurationError(
      "agentchat/ai-sdk: agentchatToolApproval's second argument is your own toolApproval: a function, or an object of statuses by tool name.",
    );
  }
  return async (context) => {
    const own = decision(await ownStatus(approval, context));
    if (!named.has(context.toolCall.toolName)) return own;
    return own.type === 'denied' || own.type === 'user-approval' ? own : { type: 'user-approval' };
  };
}

/**
 * What the application's `toolApproval` says of a call, as the AI SDK would read it: the
 * function's answer; or the object's entry for the tool (a status, or a function's answer about
 * the input); or, without one, the tool's own `needsApproval`.
 */
async function ownStatus(
  approval: AgentChatToolApprovalConfiguration,
  context: AgentChatToolApprovalContext,
): Promise<AgentChatToolApprovalStatus> {
  if (typeof approval === 'function') return approval(context);
  const { toolName, toolCallId, input } = context.toolCall;
  const entry = Object.hasOwn(approval, toolName) ? approval[toolName] : undefined;
  if (typeof entry === 'function') {
    return entry(input as never, {
      toolCallId,
      messages: context.messages,
      toolContext: ownField(context.toolsContext, toolName),
      runtimeContext: context.runtimeContext,
    });
  }
  if (entry != null) return entry;
  const tool = ownField(context.tools, toolName) as { needsApproval?: unknown } | undefined;
  const needsApproval = tool?.needsApproval;
  const needed =
    typeof needsApproval === 'function'
      ? await needsApproval(input, {
          toolCallId,
          messages: context.messages,
          context: ownField(context.toolsContext, toolName),
        })
      : needsApproval;
  return needed ? 'user-approval' : 'not-applicable';
}

/** `record[key]` when `record` is an object that has it as its own; `undefined` otherwise. */
function ownField(record: unknown, key: string): unknown {
  return typeof record === 'object' && record !== null && Object.hasOwn(record, key)
    ? (record as Record<string, unknown>)[key]
    : undefined;
}

/** A status as an object, `undefined` as `not-applicable`, the way the AI SDK normalizes it. */
function decision(status: AgentChatToolApprovalStatus): Decision {
  if (status === undefined) return { type: 'not-applicable' };
  return typeof status === 'string' ? { type: status } : status;
}
