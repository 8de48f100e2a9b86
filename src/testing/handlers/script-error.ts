import { errorResponse } from '../http/service-error.js';

/**
 * The answer when a test's own code for the mock (a scripted agent, an override) throws or
 * answers off the service's contract: a 500 whose message, carried by the client's error into
 * the test, says what went wrong, rather than a response that is silently wrong.
 *
 * @example
 * ```ts
 * scriptError('req_1', "The mock's scripted agent threw: boom");
 * ```
 */
export function scriptError(requestId: string, message: string): Response {
  return errorResponse(500, requestId, { message });
}

/** The message of whatever a test's code threw, for {@link scriptError}. */
export function thrownMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
