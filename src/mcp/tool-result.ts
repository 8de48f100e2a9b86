import type { CallToolResult } from '@modelcontextprotocol/server';
import { isAgentChatError } from '../index.js';

/** A successful call: the SDK's typed value as structured content, and a short text beside it. */
export function toolSuccess(value: object, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { ...value } };
}

/**
 * A failed call as an MCP tool error, which the model reads and can act on (a protocol error
 * would end its turn instead). The SDK's errors say what happened and never hold the key, so
 * their message goes through whole; the request id is added when the message lacks it, for
 * support. Any other error could come from anywhere and hold anything, so only its class is told.
 */
export function toolError(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: describeError(error) }] };
}

function describeError(error: unknown): string {
  if (!isAgentChatError(error)) {
    const kind = error instanceof Error ? error.name : typeof error;
    return `The call failed with an unexpected ${kind}; its message is withheld, as it could hold a credential.`;
  }
  const requestId = 'requestId' in error ? error.requestId : undefined;
  const text = `${error.name}: ${error.message}`;
  return typeof requestId === 'string' && !text.includes(requestId)
    ? `${text} (request id ${requestId})`
    : text;
}
