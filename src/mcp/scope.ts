import { type AuthInfo, type JSONRPCRequest, requireScopes } from '@modelcontextprotocol/server';
import { ConfigurationError } from '../index.js';
import { closest } from '../internal/closest.js';
import { type AgentChatTool, createProject, getProject, sendMessage } from './tools.js';

/** Every tool, in the order `tools/list` gives them: the names below are read from it. */
const toolTable = [createProject, getProject, sendMessage] as const;

/** One tool of {@link toolTable}, with its name and `readOnlyHint` as literal types. */
type TableTool = (typeof toolTable)[number];

/**
 * A tool of agentchat/mcp, by the name MCP clients see.
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

/** Every tool, in the order `tools/list` gives them. */
// biome-ignore lint/suspicious/noExplicitAny: the list holds tools of different shapes
export const allTools: readonly AgentChatTool<any, any>[] = toolTable;

/**
 * The `tools` of a {@link McpToolScope}: any list of {@link ToolName}s, except that with
 * `readOnly: true` a list written out in the call (an array literal, or an `as const` tuple) may
 * name only {@link ReadOnlyToolName}s, so that
 * `createMcpServer({ client, readOnly: true, tools: ['create_project'] })` does not compile. A list
 * whose names are known only when the code runs (a `ToolName[]` variable) is checked then, when
 * the server is made.
 *
 * @typeParam ReadOnly - the type of the scope's `readOnly`: `true` when written so
 * @typeParam Tools - the type of the list given
 * @example
 * ```ts
 * import type { ScopedToolList } from 'agentchat/mcp';
 *
 * const tools: ScopedToolList<true, readonly ['get_project']> = ['get_project'];
 * ```
 */
export type ScopedToolList<
  ReadOnly extends boolean = boolean,
  Tools extends readonly ToolName[] = readonly ToolName[],
> = Tools &
  NoInfer<
    ReadOnly extends true
      ? number extends Tools['length']
        ? unknown
        : readonly ReadOnlyToolName[]
      : unknown
  >;

/**
 * Which tools a server offers, for hosts that should not get them all: an agent that may only
 * read, or one that needs a single operation. Its type parameters are inferred from a call, for
 * the check {@link ScopedToolList} describes; a scope of your own needs none.
 *
 * @typeParam ReadOnly - the type of `readOnly`, inferred from a call
 * @typeParam Tools - the type of `tools`, inferred from a call
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { createMcpServer, type McpToolScope } from 'agentchat/mcp';
 *
 * const scope: McpToolScope = { readOnly: true };
 * const server = createMcpServer({ client: new Client(), ...scope });
 * ```
 */
export interface McpToolScope<
  ReadOnly extends boolean = boolean,
  Tools extends readonly ToolName[] = readonly ToolName[],
> {
  /**
   * The tools to offer, by name. Unknown names are refused when the server is made. With
   * `readOnly: true`, only tools that change nothing ({@link ReadOnlyToolName}).
   *
   * @default all three
   */
  tools?: ScopedToolList<ReadOnly, Tools>;
  /**
   * Offer only the tools that change nothing (`get_project`). With `tools`, every tool named
   * must be read-only.
   *
   * @default false
   */
  readOnly?: ReadOnly;
}

/**
 * The tools a scope selects, in their usual order.
 *
 * @throws {@link ConfigurationError} for a name that is not a tool (with the one probably meant), an
 * empty list, or a tool that changes something named in a read-only scope.
 */
// biome-ignore lint/suspicious/noExplicitAny: see allTools
export function toolsInScope(scope: McpToolScope): readonly AgentChatTool<any, any>[] {
  const { tools, readOnly = false } = scope;
  const names = allTools.map((tool) => tool.name);
  if (tools !== undefined) {
    if (!Array.isArray(tools) || tools.length === 0) {
      throw new ConfigurationError(`tools must list one or more of ${names.join(', ')}.`);
    }
    for (const name of tools as readonly unknown[]) {
      if (typeof name === 'string' && names.includes(name)) continue;
      const meant = typeof name === 'string' ? closest(name, names) : undefined;
      throw new ConfigurationError(
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
    throw new ConfigurationError(
      `A read-only server cannot offer ${writing.map((tool) => tool.name).join(', ')}, which ` +
        'changes something: drop it from tools, or drop readOnly.',
    );
  }
  return chosen.filter((tool) => tool.annotations.readOnlyHint === true);
}

/** Which of the two scopes each tool needs: reading, or writing (creating, sending). */
const TOOL_ACCESS: Readonly<Record<ToolName, 'read' | 'write'>> = {
  create_project: 'write',
  get_project: 'read',
  send_message: 'write',
};

/**
 * The OAuth scope names of the tools when the server is an OAuth protected resource, for identity
 * providers with naming rules of their own. Entra ID, for one, has hosts request
 * `api://<application id>/agentchat.read` and puts `agentchat.read` in the token's `scp`.
 *
 * @example
 * ```ts
 * import type { McpScopeNames } from 'agentchat/mcp';
 *
 * const entra: McpScopeNames = {
 *   scopePrefix: 'api://3f2a9c4e-0000-4000-8000-000000000001/',
 *   readScope: 'agentchat.read',
 *   writeScope: 'agentchat.write',
 * };
 * ```
 */
export interface McpScopeNames {
  /**
   * The scope `get_project` needs, as tokens carry it (without `scopePrefix`).
   *
   * @default 'agentchat:read'
   */
  readScope?: string;
  /**
   * The scope `create_project` and `send_message` need, as tokens carry it (without
   * `scopePrefix`). May be the same as `readScope`, for one scope that allows every tool.
   *
   * @default 'agentchat:write'
   */
  writeScope?: string;
  /**
   * What hosts put before each name when they request it, and what the protected resource
   * metadata and challenges name: Entra ID's `api://<application id>/`. A token's scope is
   * accepted with the prefix or without it.
   *
   * @default '' (none)
   */
  scopePrefix?: string;
}

/** The scope names when none are configured: what tokens, metadata and challenges carry. */
export const scopeNameDefaults: Readonly<Required<McpScopeNames>> = {
  readScope: 'agentchat:read',
  writeScope: 'agentchat:write',
  scopePrefix: '',
};

/** The scopes of a server's tools, as configured: what it advertises and what tokens need. */
export interface ToolScopes {
  /** Every scope, prefixed and each once, for the protected resource metadata. */
  readonly supported: readonly string[];
  /** The scope, prefixed, that `tool` needs. */
  of(tool: string): string;
  /** The scopes, prefixed and each once, that `tools` need, reading first. */
  neededBy(tools: readonly { readonly name: string }[]): readonly string[];
  /** A token's scopes, with each configured name given unprefixed written prefixed. */
  held(tokenScopes: readonly string[]): readonly string[];
}

/** RFC 6749 section 3.3's scope-token: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** What a message refusing a scope name gives as an example. */
const EXAMPLES: Readonly<Record<keyof McpScopeNames, string>> = {
  readScope: 'agentchat.read',
  writeScope: 'agentchat.write',
  scopePrefix: 'api://<application id>/',
};

/**
 * The tools' scopes from the names configured.
 *
 * @throws {@link ConfigurationError} for a name that is not an RFC 6749 scope token, or a prefix
 * with a character no scope may hold.
 */
export function toolScopes(names: McpScopeNames = {}): ToolScopes {
  const checked = (option: keyof McpScopeNames, flag: string): string => {
    const value = names[option] ?? scopeNameDefaults[option];
    const empty = option === 'scopePrefix' && value === '';
    if (typeof value !== 'string' || !(empty || SCOPE_TOKEN.test(value))) {
      throw new ConfigurationError(
        `Invalid ${option} (${flag}) ${JSON.stringify(value)}: a scope is printable ASCII ` +
          `without spaces, double quotes or backslashes (RFC 6749 section 3.3), such as ${EXAMPLES[option]}.`,
      );
    }
    return value;
  };
  const prefix = checked('scopePrefix', '--scope-prefix');
  const byAccess = {
    read: checked('readScope', '--read-scope'),
    write: checked('writeScope', '--write-scope'),
  };
  const of = (tool: string): string => prefix + byAccess[TOOL_ACCESS[tool as ToolName]];
  const neededBy = (tools: readonly { readonly name: string }[]): readonly string[] => [
    ...new Set(
      (['read', 'write'] as const)
        .filter((access) => tools.some((tool) => TOOL_ACCESS[tool.name as ToolName] === access))
        .map((access) => prefix + byAccess[access]),
    ),
  ];
  const unprefixed = new Set(Object.values(byAccess));
  return {
    supported: neededBy(allTools),
    of,
    neededBy,
    held: (tokenScopes) =>
      tokenScopes.map((scope) => (unprefixed.has(scope) ? prefix + scope : scope)),
  };
}

/**
 * The tools of `tools` a token's scopes allow: what `tools/list` shows its bearer, and all it
 * may call.
 */
// biome-ignore lint/suspicious/noExplicitAny: see allTools
export function toolsForToken<Tool extends AgentChatTool<any, any>>(
  tools: readonly Tool[],
  authInfo: Pick<AuthInfo, 'scopes'>,
  scopes: ToolScopes,
): readonly Tool[] {
  const held = scopes.held(authInfo.scopes);
  return tools.filter((tool) => held.includes(scopes.of(tool.name)));
}

/**
 * The scope the first `tools/call` in a JSON-RPC body (a batch is read whole) needs and the token
 * lacks, by the SDK's own `requireScopes`, or `undefined` when every call it makes is allowed. A
 * call of a tool the server does not offer is left to the server, which answers it as unknown.
 */
export async function missingScope(
  body: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: see allTools
  tools: readonly AgentChatTool<any, any>[],
  authInfo: AuthInfo,
  scopes: ToolScopes,
): Promise<{ readonly tool: string; readonly scope: string } | undefined> {
  // Checked by the SDK's own rule against the token's scopes written as metadata names them.
  const held = { ...authInfo, scopes: [...scopes.held(authInfo.scopes)] };
  for (const message of Array.isArray(body) ? body : [body]) {
    if ((message as { method?: unknown } | null)?.method !== 'tools/call') continue;
    const name = (message as { params?: { name?: unknown } }).params?.name;
    const tool = tools.find((candidate) => candidate.name === name);
    if (tool === undefined) continue;
    const needed = scopes.of(tool.name);
    const challenge = await requireScopes(needed)({
      request: message as JSONRPCRequest,
      authInfo: held,
    });
    if (challenge !== undefined) return { tool: tool.name, scope: needed };
  }
  return undefined;
}
