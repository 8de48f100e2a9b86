/**
 * The client for the Project and Agent Chat service: {@link Client}, its options, the errors it
 * throws, the types of what it sends and returns, {@link clientCredentials} for OAuth 2.0 and
 * {@link workloadIdentity} for workload identity federation. The mock service for tests is in
 * `agentchat/testing`.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 *
 * const client = new Client(); // reads AGENTCHAT_API_KEY and AGENTCHAT_BASE_URL
 * const project = await client.projects.create({ name: 'Support', agentId: 'agent_42' });
 * const reply = await client.chat.send({ projectId: project.id, message: 'Hello!' });
 * ```
 *
 * @packageDocumentation
 * @module agentchat
 */
export { Client, clientDefaults } from './client.js';
export type { APIPromise, WithResponse } from './core/api-promise.js';
export type { HttpMethod } from './core/call.js';
export type { ApiKeyContext, ApiKeyFunction } from './core/credential.js';
export type {
  CustomRequest,
  CustomRequestOptions,
  QueryValue,
} from './core/custom-request.js';
export type { AttemptChannelContext, CallChannelContext } from './core/diagnostics.js';
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
  ConfigurationError,
  ConflictError,
  type ErrorJSON,
  InternalServerError,
  isAgentChatError,
  isAPIError,
  NotFoundError,
  OAuthError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ValidationIssue,
} from './core/errors/index.js';
export type { FetchOptions } from './core/fetch-options.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { Caller, Middleware, MiddlewareContext } from './core/middleware.js';
export type {
  AppInfo,
  BodyRequestOptions,
  ClientOptions,
  ExtraBody,
  RequestOptions,
} from './core/options.js';
export { path } from './core/path.js';
export type { RetryBudgetOptions, RetryBudgetState } from './core/retry-budget.js';
export { retryDefaults } from './core/retry-policy.js';
export type {
  StandardSchemaV1,
  StandardSchemaV1InferOutput,
  StandardSchemaV1Result,
} from './core/standard-schema.js';
export type {
  PrivateJwk,
  PrivateKey,
  SigningAlgorithm,
  SigningCryptoKey,
} from './oauth/client-assertion.js';
export {
  type ClientCredentialsOptions,
  clientCredentials,
} from './oauth/client-credentials.js';
export {
  type GitHubActionsIdentityTokenOptions,
  githubActionsIdentityToken,
} from './oauth/github-actions-identity-token.js';
export {
  type GoogleIdentityTokenOptions,
  googleIdentityToken,
} from './oauth/google-identity-token.js';
export type { IdentityTokenContext, IdentityTokenSource } from './oauth/identity-token.js';
export { identityTokenFile } from './oauth/identity-token-file.js';
export type { TokenCache } from './oauth/token-cache.js';
export { type WorkloadIdentityOptions, workloadIdentity } from './oauth/workload-identity.js';
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
