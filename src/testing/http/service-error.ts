import { jsonResponse } from './responses.js';

/**
 * Error `type` for each status the mock answers. Statuses not listed fall back by class: other
 * 4xx are `invalid_request_error`, 5xx are `api_error`.
 */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'method_not_allowed_error',
  408: 'request_timeout_error',
  409: 'idempotency_error',
  413: 'request_too_large_error',
  422: 'unprocessable_entity_error',
  429: 'rate_limit_error',
};

/** Default messages for statuses a test injects without a body of its own. */
const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Permission denied',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request timed out',
  409: 'Conflict',
  413: 'Request body too large',
  422: 'Unprocessable entity',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/** The error body every failure of the mock's service carries: `{"error":{"type","message","requestId"}}`. */
export interface ErrorBody {
  error: { type: string; message: string; requestId: string };
}

/**
 * The `error.type` the mock uses for a status.
 *
 * @example
 * ```ts
 * errorType(429); // 'rate_limit_error'
 * ```
 */
export function errorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** What an error response may say besides its status. */
export interface ErrorDetails {
  /** Defaults to a phrase for the status. */
  message?: string;
  /** Defaults to the type of the status, see {@link errorType}. */
  type?: string;
  headers?: Record<string, string>;
}

/**
 * An error response with the standard body.
 *
 * @example
 * ```ts
 * errorResponse(405, 'req_1', { message: 'GET is not allowed here', headers: { allow: 'POST' } });
 * ```
 */
export function errorResponse(
  status: number,
  requestId: string,
  { message, type, headers }: ErrorDetails = {},
): Response {
  const body: ErrorBody = {
    error: {
      type: type ?? errorType(status),
      message: message ?? STATUS_MESSAGES[status] ?? `Request failed with status ${status}`,
      requestId,
    },
  };
  return jsonResponse(status, body, headers);
}
