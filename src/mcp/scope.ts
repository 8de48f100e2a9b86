import { type AuthInfo, type JSONRPCRequest, requireScopes } from '@modelcontextprotocol/server';
import { allTools, type ReadOnlyToolName, type ToolName } from '../tools/scope.js';
import type { AgentChatTool } from '../tools/table.js';
import { checkedScopeNames, type McpScopeNames } from './scope-names.js';

export {
  allTools,
  type ReadOnlyToolName,
  type ToolName,
  toolsInScope,
} from '../tools/scope.js';

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
 * Which of the two scopes a tool needs: reading for one that changes nothing (its
 * `readOnlyHint`, as `readOnly` reads it), writing for any other, or for a name no tool has.
 */
function accessOf(name: string): 'read' | 'write' {
  const tool = allTools.find((candidate) => candidate.name === name);
  return tool?.annotations.readOnlyHint === true ? 'read' : 'write';
}

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

/**
 * The tools' scopes from the names configured.
 *
 * @throws {@link ConfigurationError} as {@link checkedScopeNames} does.
 */
export function toolScopes(names: McpScopeNames = {}): ToolScopes {
  const { scopePrefix: prefix, readScope, writeScope } = checkedScopeNames(names);
  const byAccess = { read: readScope, write: writeScope };
  const of = (tool: string): string => prefix + byAccess[accessOf(tool)];
  const neededBy = (tools: readonly { readonly name: string }[]): readonly string[] => [
    ...new Set(
      (['read', 'write'] as const)
        .filter((access) => tools.some((tool) => accessOf(tool.name) === access))
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
