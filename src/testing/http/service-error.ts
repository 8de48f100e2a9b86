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
  422: 'Unprocessable entity',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/** The error body every failure of the mock carries. */
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

/**
 * The one error body shape: `{"error":{"type","message","requestId"}}`.
 *
 * @example
 * ```ts
 * errorBody(404, 'No project with id "proj_x"', 'req_1');
 * ```
 */
export function errorBody(status: number, message: string, requestId: string): ErrorBody {
  return { error: { type: errorType(status), message, requestId } };
}

/**
 * An error response with the standard body; `message` defaults to a phrase for the status.
 *
 * @example
 * ```ts
 * errorResponse(405, 'req_1', 'GET is not allowed here', { allow: 'POST' });
 * ```
 */
export function errorResponse(
  status: number,
  requestId: string,
  message = STATUS_MESSAGES[status] ?? `Request failed with status ${status}`,
  headers?: Record<string, string>,
): Response {
  return jsonResponse(status, errorBody(status, message, requestId), headers);
}
