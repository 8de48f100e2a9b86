import type { RequestBody } from './body.js';
import type { ProjectStore } from './store.js';

/** What an endpoint handler gets: the request already routed, authenticated and parsed. */
export interface RouteContext {
  /** Path parameters, percent-decoded once. */
  params: Readonly<Record<string, string>>;
  body: RequestBody;
  /** Goes into error bodies; the `x-request-id` header is added for every response elsewhere. */
  requestId: string;
  store: ProjectStore;
}

/**
 * One endpoint of the service.
 *
 * @example
 * ```ts
 * const ping: Route = { method: 'GET', path: '/v1/ping', handle: () => jsonResponse(200, {}) };
 * ```
 */
export interface Route {
  method: 'GET' | 'POST';
  /** Path below the base URL; `:name` segments are parameters. */
  path: string;
  /** Synchronous on purpose: nothing can interleave between an idempotency check and its record. */
  handle(context: RouteContext): Response;
}
