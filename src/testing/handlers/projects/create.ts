import { jsonObject, nonEmptyString, optional, readFields } from '../../http/body-fields.js';
import { jsonResponse } from '../../http/responses.js';
import { errorResponse } from '../../http/service-error.js';
import { serializeCreatedProject } from '../../serializers/project.js';
import type { Endpoint } from '../endpoint.js';

/**
 * `POST /v1/projects`: stores a new project and answers 201 with the create-response shape.
 *
 * @example
 * ```ts
 * // POST {baseUrl}/v1/projects {"name":"Demo","agentId":"agent_1"}
 * // 201 {"id":"proj_...","name":"Demo","status":"active","createdAt":"..."}
 * ```
 */
export const createProject: Endpoint = {
  method: 'POST',
  path: '/v1/projects',
  authentication: 'bearer',
  operation: 'projects.create',
  handle({ body, requestId, projects }) {
    const input = readFields(body, {
      name: nonEmptyString,
      agentId: nonEmptyString,
      metadata: optional(jsonObject),
    });
    if (!input.ok) return errorResponse(400, requestId, { message: input.message });

    const { name, agentId, metadata } = input.fields;
    const project = projects.create(metadata ? { name, agentId, metadata } : { name, agentId });
    return jsonResponse(201, serializeCreatedProject(project));
  },
};
