/** One class per status the service's clients handle apart; each adds nothing but its name. */
import type { CallSite } from './agentchat-error.js';
import { APIError, type APIErrorDetails } from './api-error.js';

/**
 * 400: the service refused the request as malformed. Not retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.create({ name: 'Support', agentId: 'agent_42' });
 * } catch (error) {
 *   if (error instanceof BadRequestError) console.error('Refused:', error.message);
 * }
 * ```
 */
export class BadRequestError extends APIError {
  static override readonly errorName: string = 'BadRequestError';
  /** Always 400: the class is chosen by it, so code that narrows to it knows the status. */
  declare readonly status: 400;
}
/**
 * 401: the API key is missing, malformed or unknown. Not retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof AuthenticationError) console.error('Check AGENTCHAT_API_KEY');
 * }
 * ```
 */
export class AuthenticationError extends APIError {
  static override readonly errorName: string = 'AuthenticationError';
  /** Always 401: the class is chosen by it, so code that narrows to it knows the status. */
  declare readonly status: 401;
}
/**
 * 403: the key is valid but may not do this. Not retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof PermissionDeniedError) console.error('This key may not read that project');
 * }
 * ```
 */
export class PermissionDeniedError extends APIError {
  static override readonly errorName: string = 'PermissionDeniedError';
  /** Always 403: the class is chosen by it, so code that narrows to it knows the status. */
  declare readonly status: 403;
}
/**
 * 404: no such project (or route). Not retried.
 *
 * @example
 * ```ts
 * const project = await client.projects.get('proj_123').catch((error: unknown) => {
 *   if (error instanceof NotFoundError) return undefined;
 *   throw error;
 * });
 * ```
 */
export class NotFoundError extends APIError {
  static override readonly errorName: string = 'NotFoundError';
  /** Always 404: the class is chosen by it, so code that narrows to it knows the status. */
  declare readonly status: 404;
}
/**
 * 409: a conflict, such as a request whose `Idempotency-Key` is still being processed by an
 * earlier request. Retried, as the retry policy retries every 409; thrown once retries run out.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.create(
 *     { name: 'Support', agentId: 'agent_42' },
 *     { idempotencyKey: 'order-1234' },
 *   );
 * } catch (error) {
 *   if (error instanceof ConflictError) console.error('order-1234 is still being processed');
 * }
 * ```
 */
export class ConflictError extends APIError {
  static override readonly errorName: string = 'ConflictError';
  /** Always 409: the class is chosen by it, so code that narrows to it knows the status. */
  declare readonly status: 409;
}
/**
 * 422: the request was well-formed but its content was refused, such as an `Idempotency-Key`
 * reused with a different body (which can never succeed). Not retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.send({ projectId: 'proj_123', message: 'Hello' });
 * } catch (error) {
 *   if (error instanceof UnprocessableEntityError) console.error(error.code, error.message);
 * }
 * ```
 */
export class UnprocessableEntityError extends APIError {
  static override readonly errorName: string = 'UnprocessableEntityError';
  /** Always 422: the class is chosen by it, so code that narrows to it knows the status. */
  declare readonly status: 422;
}
/**
 * 429: too many requests. `retryAfter` says how long the service asked to wait, when it did.
 * Retried; thrown once retries run out or the service asks for a wait above 60 s.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.send({ projectId: 'proj_123', message: 'Hello' });
 * } catch (error) {
 *   if (error instanceof RateLimitError) {
 *     console.error(`Rate limited; try again in ${error.retryAfter ?? 'a few'} ms`);
 *   }
 * }
 * ```
 */
export class RateLimitError extends APIError {
  static override readonly errorName: string = 'RateLimitError';
  /** Always 429: the class is chosen by it, so code that narrows to it knows the status. */
  declare readonly status: 429;
  /** How long the service asked to wait before the next request, in ms, when it said. */
  declare readonly retryAfter: number | undefined;

  constructor(call: CallSite, details: APIErrorDetails, retryAfter: number | undefined) {
    super(call, details);
    this.retryAfter = retryAfter;
  }
}
/**
 * 500 and above: the service failed. Retried; thrown once retries run out.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof InternalServerError) {
 *     console.error(`Service error ${error.status}, request id ${error.requestId}`);
 *   }
 * }
 * ```
 */
export class InternalServerError extends APIError {
  static override readonly errorName: string = 'InternalServerError';
}
