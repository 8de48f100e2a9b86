import { chatReplyProblem } from '../../agent.js';
import { nonEmptyString, readFields } from '../../http/body-fields.js';
import { jsonResponse } from '../../http/responses.js';
import { errorResponse } from '../../http/service-error.js';
import type { Endpoint } from '../endpoint.js';
import { projectNotFound } from '../projects/not-found.js';
import { scriptError, thrownMessage } from '../script-error.js';

/**
 * `POST /v1/projects/:id/chat`: answers the project's agent reply and follow-up suggestions.
 *
 * @example
 * ```ts
 * // POST {baseUrl}/v1/projects/proj_123/chat {"message":"Hello"}
 * // 200 {"message":"Hello! agent_1 here. ...","suggestions":["What can you do?", ...]}
 * ```
 */
export const sendChat: Endpoint = {
  method: 'POST',
  path: '/v1/projects/:id/chat',
  authentication: 'bearer',
  operation: 'chat.send',
  async handle({ params, body, requestId, projects, agent, readableRequest }) {
    // The project first: a message to a project that does not exist is a 404 whatever it says.
    const project = projects.get(params.id ?? '');
    if (!project) return projectNotFound(params.id, requestId);

    const input = readFields(body, { message: nonEmptyString });
    if (!input.ok) return errorResponse(400, requestId, { message: input.message });

    const turn = {
      project: structuredClone(project),
      message: input.fields.message,
      request: readableRequest(),
    };
    let reply: unknown;
    try {
      reply = await agent(turn);
    } catch (error) {
      return scriptError(requestId, `The mock's scripted agent threw: ${thrownMessage(error)}`);
    }
    const problem = chatReplyProblem(reply);
    if (problem) {
      return scriptError(
        requestId,
        `The mock's scripted agent answered something that is not a chat reply: ${problem}`,
      );
    }
    return jsonResponse(200, reply);
  },
};
