import { isAgentChatError } from '../index.js';

/**
 * What a model reads of a failed call, on every face: the SDK's errors say what happened and
 * never hold the key, so their message goes through whole, with the request id added when the
 * message lacks it, for support. Any other error could come from anywhere and hold anything, so
 * only its class is told.
 */
export function toolErrorText(error: unknown): string {
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

/**
 * What a framework's tool throws for the model to read: the SDK's own error, whose message never
 * holds the key; any other error could hold anything, so it is replaced by one that names only its
 * class.
 */
export function modelSafeError(error: unknown): unknown {
  return isAgentChatError(error) ? error : new Error(toolErrorText(error));
}
