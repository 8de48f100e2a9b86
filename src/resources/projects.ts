import type { APIPromise } from '../core/api-promise.js';
import type { Endpoint } from '../core/call.js';
import {
  type BodyRequestOptions,
  bodyRequestOptionsSchema,
  type RequestOptions,
} from '../core/options.js';
import { path } from '../core/path.js';
import type { Transport } from '../core/transport.js';
import {
  type CreatedProject,
  createdProjectSchema,
  type Project,
  type ProjectCreateParams,
  projectCreateParamsSchema,
  projectIdSchema,
  projectSchema,
} from '../schemas.js';

const createProject: Endpoint<ProjectCreateParams, CreatedProject> = {
  name: 'projects.create',
  method: 'POST',
  input: projectCreateParamsSchema,
  path: () => '/v1/projects',
  body: ({ name, agentId, metadata }) =>
    metadata === undefined ? { name, agentId } : { name, agentId, metadata },
  options: bodyRequestOptionsSchema,
  output: createdProjectSchema,
};

const getProject: Endpoint<{ id: string }, Project> = {
  name: 'projects.get',
  method: 'GET',
  input: projectIdSchema,
  path: ({ id }) => path`/v1/projects/${id}`,
  output: projectSchema,
};

/**
 * Create and read projects: `client.projects`.
 *
 * @example
 * ```ts
 * const { id } = await client.projects.create({ name: 'Support', agentId: 'agent_42' });
 * const project = await client.projects.get(id);
 * ```
 */
export class Projects {
  readonly #transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Creates a project bound to an agent. The service answers with `id`, `name`, `status` and
   * `createdAt` only; read the rest back with {@link Projects.get}.
   *
   * Retried safely: every attempt carries the same `Idempotency-Key`.
   *
   * @throws {@link RequestValidationError} when `params` are invalid (nothing is sent).
   * @throws {@link APIError} (a subclass per status) when the service refuses the request.
   * @throws {@link APIConnectionError}, {@link APITimeoutError}, {@link APIUserAbortError} and
   * {@link ResponseValidationError} as their names say.
   * @example
   * ```ts
   * const project = await client.projects.create({
   *   name: 'Support desk',
   *   agentId: 'agent_support',
   *   metadata: { launchDate: '2026-12-01', tier: 2 },
   * });
   * console.log(project.id, project.status); // proj_… active
   * ```
   */
  create(
    params: ProjectCreateParams,
    options?: BodyRequestOptions<ProjectCreateParams>,
  ): APIPromise<CreatedProject> {
    return this.#transport.request(createProject, params, options);
  }

  /**
   * Reads a project by its id, with its `agentId` and `metadata`.
   *
   * @throws {@link NotFoundError} when there is no such project.
   * @throws {@link RequestValidationError} when `id` is empty or a dot segment (nothing is sent).
   * @throws {@link APIError}, {@link APIConnectionError}, {@link APITimeoutError},
   * {@link APIUserAbortError} and {@link ResponseValidationError} as their names say.
   * @example
   * ```ts
   * const project = await client.projects.get('proj_123');
   * console.log(project.agentId, project.metadata);
   * ```
   */
  get(id: string, options?: RequestOptions): APIPromise<Project> {
    return this.#transport.request(getProject, { id }, options);
  }
}
