import type { RequestBody } from '../http/request-body.js';
import type { ProjectStore } from '../store/projects.js';

/** What an endpoint handler gets: the request already routed, authenticated and parsed. */
export interface EndpointContext {
  /** Path parameters, percent-decoded once. */
  params: Readonly<Record<string, string>>;
  body: RequestBody;
  /** Goes into error bodies; the `x-request-id` header is added for every response elsewhere. */
  requestId: string;
  store: ProjectStore;
}

/**
 * One endpoint of the service: where it is, and how it answers.
 *
 * @example
 * ```ts
 * const ping: Endpoint = { method: 'GET', path: '/v1/ping', handle: () => jsonResponse(200, {}) };
 * ```
 */
export interface Endpoint {
  method: 'GET' | 'POST';
  /** Path below the base URL; `:name` segments are parameters. */
  path: string;
  /** Synchronous on purpose: nothing can interleave between an idempotency check and its record. */
  handle(context: EndpointContext): Response;
}
