import { errorResponse } from '../../errors.js';
import { jsonResponse } from '../../responses.js';
import type { Route } from '../../route.js';
import { serializeCreatedProject } from '../../serializers.js';
import { jsonObject, nonEmptyString, optional, readFields } from '../../validation.js';

/**
 * `POST /v1/projects`: stores a new project and answers 201 with the create-response shape.
 *
 * @example
 * ```ts
 * // POST {baseUrl}/v1/projects {"name":"Demo","agentId":"agent_1"}
 * // 201 {"id":"proj_...","name":"Demo","status":"active","createdAt":"..."}
 * ```
 */
export const createProject: Route = {
  method: 'POST',
  path: '/v1/projects',
  handle({ body, requestId, store }) {
    const input = readFields(body, {
      name: nonEmptyString,
      agentId: nonEmptyString,
      metadata: optional(jsonObject),
    });
    if (!input.ok) return errorResponse(400, requestId, input.message);

    const { name, agentId, metadata } = input.fields;
    const project = store.create(metadata ? { name, agentId, metadata } : { name, agentId });
    return jsonResponse(201, serializeCreatedProject(project));
  },
};
