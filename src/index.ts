export { Client, clientDefaults } from './client.js';
export type { APIPromise, WithResponse } from './core/api-promise.js';
export {
  AgentChatError,
  APIConnectionError,
  APIError,
  type APIErrorDetails,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type CallSite,
  ConflictError,
  InternalServerError,
  isAgentChatError,
  isAPIError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ValidationIssue,
} from './core/errors.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { ClientOptions, RequestOptions } from './core/options.js';
export { retryDefaults } from './core/retry.js';
export type { Chat } from './resources/chat.js';
export type { Projects } from './resources/projects.js';
export type {
  ChatReply,
  ChatSendParams,
  CreatedProject,
  Metadata,
  Project,
  ProjectCreateParams,
  ProjectStatus,
} from './schemas.js';
export { VERSION } from './version.js';
