import type { RequestBody } from '../http/request-body.js';
import type { ClientRegistry } from '../store/oauth-clients.js';
import type { ProjectStore } from '../store/projects.js';
import type { TokenStore } from '../store/tokens.js';

/** What an endpoint handler gets: the request already routed and read, and the service's state. */
export interface EndpointContext {
  /** Path parameters, percent-decoded once. */
  params: Readonly<Record<string, string>>;
  headers: Headers;
  body: RequestBody;
  /** Goes into error bodies; the `x-request-id` header is added for every response elsewhere. */
  requestId: string;
  projects: ProjectStore;
  oauth: { clients: ClientRegistry; tokens: TokenStore };
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
  /** Synchronous on purpose: nothing can interleave between an idempotency check and its record. */
  handle(context: EndpointContext): Response;
}
