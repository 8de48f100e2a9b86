import { AgentChatError } from './agentchat-error.js';
import { APIError } from './api-error.js';

/**
 * True for any error thrown by `agentchat`, from any copy of the package.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (isAgentChatError(error)) console.error(error.name, error.message);
 *   else throw error;
 * }
 * ```
 */
export function isAgentChatError(value: unknown): value is AgentChatError {
  return value instanceof AgentChatError;
}

/**
 * True for a non-2xx response from the service, from any copy of the package.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (isAPIError(error)) console.error(error.status, error.requestId);
 * }
 * ```
 */
export function isAPIError(value: unknown): value is APIError {
  return value instanceof APIError;
}
