import type { CallToolResult } from '@modelcontextprotocol/server';
import { toolErrorText } from '../tools/error-text.js';

/** A successful call: the SDK's typed value as structured content, and a short text beside it. */
export function toolSuccess(value: object, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { ...value } };
}

/**
 * A failed call as an MCP tool error, which the model reads and can act on (a protocol error
 * would end its turn instead), worded by {@link toolErrorText}.
 */
export function toolError(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: toolErrorText(error) }] };
}
