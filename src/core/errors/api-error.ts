import { requestIdOf } from '../redaction.js';
import { AgentChatError, type CallSite, describeCall, requestIdSuffix } from './agentchat-error.js';
import { readServerError } from './server-error-body.js';

/**
 * What the service said in a non-2xx response: the second argument of every {@link APIError}
 * constructor.
 *
 * @example
 * ```ts
 * // A fake 503, to test how your own code handles a failing service.
 * const details: APIErrorDetails = {
 *   status: 503,
 *   headers: new Headers({ 'x-request-id': 'req_1' }),
 *   body: { error: { type: 'api_error', message: 'Service unavailable' } },
 * };
 * const error = new InternalServerError({ method: 'POST', path: '/v1/projects' }, details);
 * ```
 */
export interface APIErrorDetails {
  /** The HTTP status. */
  readonly status: number;
  /** The response headers. */
  readonly headers: Headers;
  /** The body: parsed JSON when it parsed, otherwise the raw text (`undefined` when empty). */
  readonly body: unknown;
}

/**
 * The service answered with a non-2xx status. Subclasses name the common statuses;
 * `status`, `requestId` and the server's own `type`, `code` and message are on every one.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof APIError) {
 *     console.error(error.status, error.type, error.requestId, error.message);
 *   }
 * }
 * ```
 */
export class APIError extends AgentChatError {
  static override readonly errorName: string = 'APIError';
  // Each field is declared and set by the constructor: a field initialised there as well would
  // be emitted twice, a declaration and an assignment, in every browser bundle.
  /** The HTTP status. */
  declare readonly status: number;
  /** The response headers. */
  declare readonly headers: Headers;
  /** The `x-request-id` of the response, for support requests, when it looks like one. */
  declare readonly requestId: string | undefined;
  /** The body: parsed JSON when it parsed, otherwise the raw text (`undefined` when empty). */
  declare readonly body: unknown;
  /** The error type the service gave, such as `not_found_error`, when its body had one. */
  declare readonly type: string | undefined;
  /** The error code the service gave, when its body had one. */
  declare readonly code: string | undefined;

  constructor(call: CallSite, details: APIErrorDetails) {
    const serverError = readServerError(details.body);
    const requestId = requestIdOf(details.headers);
    super(
      `${describeCall(call)} failed with status ${details.status}${serverError.message ? `: ${serverError.message}` : ''}${requestIdSuffix(requestId)}`,
    );
    this.status = details.status;
    this.headers = details.headers;
    this.requestId = requestId;
    this.body = details.body;
    this.type = serverError.type;
    this.code = serverError.code;
  }
}
