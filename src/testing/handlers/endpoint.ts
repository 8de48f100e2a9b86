import type { MockAgent } from '../agent.js';
import type { RequestBody } from '../http/request-body.js';
import type { IdentityVerifier } from '../identity/trusted-issuers.js';
import type { ClientRegistry } from '../store/oauth-clients.js';
import type { ProjectStore } from '../store/projects.js';
import type { TokenStore } from '../store/tokens.js';
import type { MockOperation } from './overrides.js';

/** What an endpoint handler gets: the request already routed and read, and the service's state. */
export interface EndpointContext {
  /** Path parameters, percent-decoded once. */
  params: Readonly<Record<string, string>>;
  headers: Headers;
  body: RequestBody;
  /** Goes into error bodies; the `x-request-id` header is added for every response elsewhere. */
  requestId: string;
  projects: ProjectStore;
  oauth: {
    clients: ClientRegistry;
    tokens: TokenStore;
    /** Verifies workload identity tokens; absent when no issuer is trusted (`trustedIssuers`). */
    identities?: IdentityVerifier;
  };
  /** The agent that answers chat messages: the test's, or the built-in one. */
  agent: MockAgent;
  /** A copy of the request with its body unread, made on demand for a test's own code. */
  readableRequest(): Request;
}

/**
 * One endpoint of the service: where it is, who may call it, and how it answers.
 *
 * @example
 * ```ts
 * const ping: Endpoint = {
 *   method: 'GET',
 *   path: '/v1/ping',
 *   authentication: 'bearer',
 *   handle: () => jsonResponse(200, {}),
 * };
 * ```
 */
export interface Endpoint {
  method: 'GET' | 'POST';
  /** Path below the base URL; `:name` segments are parameters. */
  path: string;
  /**
   * `bearer`: the service checks `Authorization: Bearer` (an API key or an issued access token)
   * before the handler runs, and honours `Idempotency-Key` on POST. `oauth-client`: the handler
   * authenticates the OAuth client itself, as a token endpoint does.
   */
  authentication: 'bearer' | 'oauth-client';
  /** The SDK operation it serves, for overrides; the token endpoint is none. */
  operation?: MockOperation;
  /**
   * Synchronous but for a scripted agent: a request with the same Idempotency-Key meanwhile is
   * answered 409, as its key is claimed from arrival to answer.
   */
  handle(context: EndpointContext): Response | Promise<Response>;
}
