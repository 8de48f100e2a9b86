import { applyFault } from '../faults/apply-fault.js';
import { assertFault } from '../faults/fault.js';
import { jsonObject, nonEmptyString } from '../http/body-fields.js';
import { type Exchange, readableCopy } from '../http/exchange.js';
import type { RequestBody } from '../http/request-body.js';
import { jsonResponse } from '../http/responses.js';
import type { ProjectStore } from '../store/projects.js';
import {
  bodyProblem,
  isFaultAnswer,
  type MockOperation,
  type MockOperations,
  type OverrideHandler,
  SUCCESS_STATUS,
} from './overrides.js';
import { scriptError, thrownMessage } from './script-error.js';

/**
 * Runs a test's override for one request and turns its answer into a response: a body checked
 * against the operation's response shape (a create's project then stored), or a fault, whose
 * `delay` leads to `normal`, the service's own answer.
 *
 * @example
 * ```ts
 * await runOverride('chat.send', handler, exchange, { id: 'proj_1' }, projects, () => handle(context));
 * ```
 */
export async function runOverride(
  operation: MockOperation,
  handler: OverrideHandler<MockOperation>,
  exchange: Exchange,
  params: Readonly<Record<string, string>>,
  projects: ProjectStore,
  normal: () => Response | Promise<Response>,
): Promise<Response> {
  const { body, requestId, entry } = exchange;
  const stored = params.id === undefined ? undefined : projects.get(params.id);
  let answered: unknown;
  try {
    answered = await handler({
      params: params as MockOperations[MockOperation]['params'],
      project: stored && structuredClone(stored),
      request: readableCopy(exchange.request, body),
    });
  } catch (error) {
    return scriptError(
      requestId,
      `The mock's ${operation} override threw: ${thrownMessage(error)}`,
    );
  }

  if (isFaultAnswer(answered)) {
    try {
      assertFault(answered);
    } catch (error) {
      return scriptError(
        requestId,
        `The mock's ${operation} override answered a fault it cannot answer: ${thrownMessage(error)}`,
      );
    }
    entry.fault = answered.kind;
    return applyFault(answered, exchange, 0, normal);
  }

  const problem = bodyProblem(operation, answered);
  if (problem) {
    return scriptError(
      requestId,
      `The mock's ${operation} override answered a body off the service's response: ${problem}`,
    );
  }
  if (operation === 'projects.create') {
    storeCreated(answered as MockOperations['projects.create']['body'], body, projects);
  }
  return jsonResponse(SUCCESS_STATUS[operation], answered);
}

/** Keeps what a create override answered, so the project it announced can be read back. */
function storeCreated(
  { id, name, status, createdAt }: MockOperations['projects.create']['body'],
  body: RequestBody,
  projects: ProjectStore,
): void {
  const sent = (body.kind === 'json' ? body.value : undefined) as
    | { agentId?: unknown; metadata?: unknown }
    | undefined;
  projects.put({
    id,
    name,
    // What the request asked for: the create response does not carry these two.
    agentId: nonEmptyString.test(sent?.agentId) ? sent.agentId : '',
    metadata: jsonObject.test(sent?.metadata) ? sent.metadata : {},
    status,
    createdAt,
  });
}
