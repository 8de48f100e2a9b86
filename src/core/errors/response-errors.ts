/** Answers the client refuses to read: a redirect it will not follow, a body past the limit. */
import {
  AgentChatError,
  type CallSite,
  cut,
  describeCall,
  requestIdSuffix,
} from './agentchat-error.js';
import { APIError, type APIErrorDetails } from './api-error.js';

/**
 * The service answered with a redirect (a 3xx), which the client never follows: a redirect to
 * another origin would carry the request's body, its headers and its Idempotency-Key there.
 * Nothing was sent to the `location`. Set `baseUrl` to the final address instead. Not retried.
 * In a browser the redirect's status and `location` are hidden from the page: `status` is 0
 * and `location` is `undefined`.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof RedirectError) {
 *     console.error(`The service moved to ${error.location ?? 'an address the browser hides'}`);
 *   }
 * }
 * ```
 */
export class RedirectError extends APIError {
  static override readonly errorName: string = 'RedirectError';
  /** Where the service redirected to, when the response let it be read. */
  declare readonly location: string | undefined;

  constructor(call: CallSite, details: APIErrorDetails) {
    super(call, details);
    const location = details.headers.get('location') ?? undefined;
    this.location = location;
    this.message = `${describeCall(call)} was redirected (status ${details.status})${location ? ` to ${cut(location)}` : ''}; redirects are not followed: set baseUrl to the final address${requestIdSuffix(this.requestId)}`;
  }
}

/**
 * A response body ran past the limit (`maxResponseBytes`, 10 MiB by default, counted after
 * content decoding; 64 KiB for an OAuth token response). The read was stopped and the rest of
 * the body discarded, so a hostile or broken server cannot exhaust memory. Not retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123', { maxResponseBytes: 1024 * 1024 });
 * } catch (error) {
 *   if (error instanceof ResponseTooLargeError) {
 *     console.error(`Answer ${error.status} was larger than ${error.limit} bytes`);
 *   }
 * }
 * ```
 */
export class ResponseTooLargeError extends AgentChatError {
  static override readonly errorName: string = 'ResponseTooLargeError';
  /** The limit the body ran past, in bytes. */
  declare readonly limit: number;
  /** The HTTP status of the response. */
  declare readonly status: number;
  /** The `x-request-id` of the response, for support requests. */
  declare readonly requestId: string | undefined;

  constructor(
    call: CallSite,
    response: { readonly status: number; readonly requestId: string | undefined },
    limit: number,
  ) {
    super(
      `${describeCall(call)} answered ${response.status} with a body larger than ${limit} bytes (maxResponseBytes); it was not read${requestIdSuffix(response.requestId)}`,
    );
    this.limit = limit;
    this.status = response.status;
    this.requestId = response.requestId;
  }
}
