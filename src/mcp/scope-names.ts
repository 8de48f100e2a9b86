/**
 * The names of the OAuth scopes agentchat-mcp's tools need, as configured: read by the bin's
 * command line as well as by the HTTP handler, so this file needs nothing of the MCP SDK (the
 * bin reads its arguments before it loads that optional peer).
 */
import { ConfigurationError } from '../index.js';

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

/** RFC 6749 section 3.3's scope-token: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** What a message refusing a scope name gives as an example. */
const EXAMPLES: Readonly<Record<keyof McpScopeNames, string>> = {
  readScope: 'agentchat.read',
  writeScope: 'agentchat.write',
  scopePrefix: 'api://<application id>/',
};

/**
 * The scope names with the defaults filled in.
 *
 * @throws {@link ConfigurationError} for a name that is not an RFC 6749 scope token, or a prefix
 * with a character no scope may hold, naming the option and its flag.
 */
export function checkedScopeNames(names: McpScopeNames): Required<McpScopeNames> {
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
  return {
    readScope: checked('readScope', '--read-scope'),
    writeScope: checked('writeScope', '--write-scope'),
    scopePrefix: checked('scopePrefix', '--scope-prefix'),
  };
}
