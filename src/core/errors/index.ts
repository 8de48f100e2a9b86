/** Every error this package throws, all under {@link AgentChatError}. */
export {
  AgentChatError,
  addNote,
  type CallSite,
  cut,
  describeCall,
  type ErrorJSON,
} from './agentchat-error.js';
export { APIError, type APIErrorDetails } from './api-error.js';
export { ConfigurationError } from './configuration-error.js';
export {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  type TimedCall,
  type TimeoutScope,
  timeoutError,
  timeoutScope,
} from './connection-errors.js';
export { createAPIError } from './create-api-error.js';
export { isAgentChatError, isAPIError } from './guards.js';
export { OAuthError } from './oauth-error.js';
export { RedirectError, ResponseTooLargeError } from './response-errors.js';
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './status-errors.js';
export {
  RequestValidationError,
  ResponseValidationError,
  type ValidationIssue,
} from './validation-errors.js';
