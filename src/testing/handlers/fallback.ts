import { errorResponse } from '../http/service-error.js';
import type { EndpointMatch } from './routing.js';

/**
 * The answer for a request under the base URL that no endpoint takes: 405 with `Allow` when the
 * path is known, 404 otherwise.
 *
 * @example
 * ```ts
 * // DELETE {baseUrl}/v1/projects/proj_1 → 405, Allow: GET
 * // GET {baseUrl}/v2/anything          → 404
 * ```
 */
export function fallback(
  match: Exclude<EndpointMatch, { kind: 'endpoint' }>,
  method: string,
  path: string,
  requestId: string,
): Response {
  if (match.kind === 'wrong-method') {
    const allow = match.allow.join(', ');
    return errorResponse(405, requestId, {
      message: `${method} is not allowed on ${path}; use ${allow}`,
      headers: { allow },
    });
  }
  return errorResponse(404, requestId, { message: `No route for ${method} ${path}` });
}
