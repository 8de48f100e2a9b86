import { errorResponse } from '../../http/service-error.js';

/**
 * The 404 for a project id the store does not hold, shared by every route under a project.
 *
 * @example
 * ```ts
 * projectNotFound('proj_missing', 'req_1'); // 404 not_found_error
 * ```
 */
export function projectNotFound(id: string | undefined, requestId: string): Response {
  return errorResponse(404, requestId, {
    message: `No project with id ${JSON.stringify(id ?? '')}`,
  });
}
