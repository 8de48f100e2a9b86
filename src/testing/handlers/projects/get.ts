import { jsonResponse } from '../../http/responses.js';
import { serializeProject } from '../../serializers/project.js';
import type { Endpoint } from '../endpoint.js';
import { projectNotFound } from './not-found.js';

/**
 * `GET /v1/projects/:id`: answers the full project, or 404.
 *
 * @example
 * ```ts
 * // GET {baseUrl}/v1/projects/proj_123
 * // 200 {"id":"proj_123","name":"Demo","agentId":"agent_1","status":"active","metadata":{},"createdAt":"..."}
 * ```
 */
export const getProject: Endpoint = {
  method: 'GET',
  path: '/v1/projects/:id',
  authentication: 'bearer',
  operation: 'projects.get',
  handle({ params, requestId, projects }) {
    const project = projects.get(params.id ?? '');
    if (!project) return projectNotFound(params.id, requestId);
    return jsonResponse(200, serializeProject(project));
  },
};
