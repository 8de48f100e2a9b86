import type { CallSite } from './agentchat-error.js';
import { APIError, type APIErrorDetails } from './api-error.js';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './status-errors.js';

const statusClasses: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
};

/** The one place that maps a non-2xx status to its error class. */
export function createAPIError(
  call: CallSite,
  details: APIErrorDetails,
  retryAfter: number | undefined,
): APIError {
  if (details.status === 429) return new RateLimitError(call, details, retryAfter);
  if (details.status >= 500) return new InternalServerError(call, details);
  const ErrorClass = statusClasses[details.status] ?? APIError;
  return new ErrorClass(call, details);
}
