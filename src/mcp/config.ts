import { AgentChatError, type ClientOptions, clientCredentials } from '../index.js';

/** The environment the bin reads: `process.env`, or a record of the same shape in tests. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The OAuth 2.0 client-credentials settings, in the order messages list them. */
const OAUTH_VARIABLES = [
  'AGENTCHAT_CLIENT_ID',
  'AGENTCHAT_CLIENT_SECRET',
  'AGENTCHAT_TOKEN_URL',
] as const;

/**
 * The client options `agentchat-mcp` runs with, from its environment: `AGENTCHAT_BASE_URL`, and
 * either `AGENTCHAT_API_KEY` or the OAuth 2.0 client-credentials settings (`AGENTCHAT_CLIENT_ID`,
 * `AGENTCHAT_CLIENT_SECRET`, `AGENTCHAT_TOKEN_URL`). A blank variable counts as unset.
 *
 * A host starts the bin with the environment its configuration gives, so every message names the
 * variables to set, and never prints a value.
 *
 * @throws {@link AgentChatError} when the base URL or the credentials are missing, when the OAuth
 * settings are incomplete, or when both an API key and OAuth settings are given.
 */
export function clientOptionsFromEnv(
  env: Environment,
): Required<Pick<ClientOptions, 'apiKey' | 'baseUrl'>> {
  const read = reader(env);
  const baseUrl = baseUrlFromEnv(env);
  const apiKey = read('AGENTCHAT_API_KEY');
  const oauthSet = OAUTH_VARIABLES.filter((name) => read(name) !== undefined);
  if (apiKey !== undefined && oauthSet.length > 0) {
    throw new AgentChatError(
      `Both AGENTCHAT_API_KEY and ${oauthSet.join(', ')} are set: set either the API key or the ` +
        `OAuth 2.0 settings (${OAUTH_VARIABLES.join(', ')}), not both.`,
    );
  }
  if (apiKey !== undefined) return { apiKey, baseUrl };
  if (oauthSet.length === 0) {
    throw new AgentChatError(
      `No credentials: set AGENTCHAT_API_KEY, or ${listed(OAUTH_VARIABLES)} for OAuth 2.0.`,
    );
  }
  const missing = OAUTH_VARIABLES.filter((name) => read(name) === undefined);
  if (missing.length > 0) {
    throw new AgentChatError(
      `Incomplete OAuth 2.0 settings: ${listed(missing)} ${missing.length === 1 ? 'is' : 'are'} ` +
        `not set (OAuth 2.0 needs ${listed(OAUTH_VARIABLES)}).`,
    );
  }
  const tokens = clientCredentials({
    tokenUrl: read('AGENTCHAT_TOKEN_URL') as string,
    clientId: read('AGENTCHAT_CLIENT_ID') as string,
    clientSecret: read('AGENTCHAT_CLIENT_SECRET') as string,
  });
  return { apiKey: tokens, baseUrl };
}

/**
 * True when the environment gives the server credentials of its own (`AGENTCHAT_API_KEY` or any
 * OAuth 2.0 setting). Over HTTP, without them, each request brings its caller's key.
 */
export function hasOwnCredentials(env: Environment): boolean {
  const read = reader(env);
  return ['AGENTCHAT_API_KEY', ...OAUTH_VARIABLES].some((name) => read(name) !== undefined);
}

/**
 * `AGENTCHAT_BASE_URL`, the service root.
 *
 * @throws {@link AgentChatError} when it is not set.
 */
export function baseUrlFromEnv(env: Environment): string {
  const baseUrl = reader(env)('AGENTCHAT_BASE_URL');
  if (baseUrl === undefined) {
    throw new AgentChatError(
      'AGENTCHAT_BASE_URL is not set: set it to the service root before /v1, such as https://host/api.',
    );
  }
  return baseUrl;
}

/** Reads a variable, trimmed; a blank one counts as unset. */
function reader(env: Environment): (name: string) => string | undefined {
  return (name) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
}

/** `A`, `A and B`, `A, B and C`. */
function listed(names: readonly string[]): string {
  return names.length <= 1
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
