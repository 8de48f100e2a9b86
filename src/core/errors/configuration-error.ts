import { AgentChatError } from './agentchat-error.js';

/**
 * The options given to a constructor or factory were refused, before anything was sent: a
 * misspelt or mistyped option, a missing API key or base URL, a browser without
 * `dangerouslyAllowBrowser`, a bad `clientCredentials` setting, an MCP server's or the mock
 * service's options. Fix the code or the environment; retrying cannot help. Thrown at once, by
 * `new Client(...)`, `client.withOptions(...)`, `clientCredentials(...)`, `createMcpServer(...)`,
 * `createMcpHttpHandler(...)` and the mock service's factories.
 *
 * @example
 * ```ts
 * try {
 *   new Client({ baseUrl: process.env.AGENTCHAT_BASE_URL });
 * } catch (error) {
 *   if (error instanceof ConfigurationError) console.error('Check the settings:', error.message);
 *   else throw error;
 * }
 * ```
 */
export class ConfigurationError extends AgentChatError {
  static override readonly errorName: string = 'ConfigurationError';
}
