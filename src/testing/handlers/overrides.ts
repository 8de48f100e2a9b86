import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { ChatReply, CreatedProject, Project } from '../../schemas.js';
import { chatReplyProblem } from '../agent.js';
import type { FaultAnswer } from '../faults/fault.js';
import {
  checkFields,
  jsonObject,
  nonEmptyString,
  projectId,
  type Rule,
  utcTimestamp,
} from '../http/body-fields.js';
import { assertKnownOptions } from '../options.js';
import type { StoredProject } from '../store/projects.js';

/**
 * What an override of one operation is given and answers: the shape of each entry of
 * {@link MockOperations}, which is where to read it. Exported for 1.x code that names it; a helper
 * type of the test kit that your code need not name, left out of the reference.
 *
 * @hidden
 * @example
 * ```ts
 * type ChatOverride = OperationShape<ProjectParams, StoredProject | undefined, ChatReply>;
 * ```
 */
export interface OperationShape<Params, Target, Body> {
  /** The path parameters, percent-decoded. */
  params: Params;
  /** The project the path names, as the store holds it, if it does. */
  project: Target;
  /** The success body, in the SDK's own result type. */
  body: Body;
}

/**
 * The path parameters of the operations under a project: `{ id }`, as an override's `params`
 * has them. Exported for 1.x code that names it; a helper type of the test kit that your code
 * need not name, left out of the reference.
 *
 * @hidden
 * @example
 * ```ts
 * const params: ProjectParams = { id: 'proj_123' };
 * ```
 */
export interface ProjectParams {
  /** The project id from the path, such as `proj_123`. */
  id: string;
}

/**
 * The operations an override can answer, named as the SDK's methods, with what each is given
 * and what it answers: the SDK's own result types.
 *
 * @example
 * ```ts
 * type ReplyBody = MockOperations['chat.send']['body']; // ChatReply
 * ```
 */
export interface MockOperations {
  /** `POST /v1/projects`: no parameters, no project yet; answers a {@link CreatedProject}. */
  'projects.create': OperationShape<Record<string, never>, undefined, CreatedProject>;
  /** `GET /v1/projects/:id`: answers a {@link Project}. */
  'projects.get': OperationShape<ProjectParams, StoredProject | undefined, Project>;
  /** `POST /v1/projects/:id/chat`: answers a {@link ChatReply}. */
  'chat.send': OperationShape<ProjectParams, StoredProject | undefined, ChatReply>;
}

/**
 * `projects.create`, `projects.get` or `chat.send`: the SDK method an override stands in for.
 *
 * @example
 * ```ts
 * const operation: MockOperation = 'chat.send';
 * mock.override(operation, () => ({ kind: 'hang' }));
 * ```
 */
export type MockOperation = keyof MockOperations;

/**
 * What an override is given for one request.
 *
 * @example
 * ```ts
 * mock.override('projects.get', ({ params, project }) =>
 *   project ? { ...project, status: 'archived' } : { kind: 'status', status: 404 },
 * );
 * ```
 */
export interface OverrideContext<O extends MockOperation> {
  /** The path parameters, percent-decoded: `{ id }` for `projects.get` and `chat.send`. */
  params: MockOperations[O]['params'];
  /** A copy of the project the path names, if the store holds it; `undefined` for a create. */
  project: MockOperations[O]['project'];
  /** The request itself, its body still readable (`await request.json()`). */
  request: Request;
}

/**
 * An override's answer: the operation's success body, in the SDK's type, or a fault (a status,
 * a malformed body, a dropped connection, a delay before the normal answer, a hang).
 *
 * @example
 * ```ts
 * const busy: OverrideAnswer<'chat.send'> = { kind: 'status', status: 503 };
 * const reply: OverrideAnswer<'chat.send'> = { message: 'Hi', suggestions: [] };
 * ```
 */
export type OverrideAnswer<O extends MockOperation> = MockOperations[O]['body'] | FaultAnswer;

/**
 * Answers one operation in place of the service.
 *
 * @example
 * ```ts
 * const handler: OverrideHandler<'chat.send'> = ({ project }) => ({
 *   message: `Hello from ${project?.name}`,
 *   suggestions: [],
 * });
 * ```
 */
export type OverrideHandler<O extends MockOperation> = (
  context: OverrideContext<O>,
) => OverrideAnswer<O> | Promise<OverrideAnswer<O>>;

/**
 * How long an override stays.
 *
 * @example
 * ```ts
 * mock.override('chat.send', () => ({ kind: 'status', status: 503 }), { once: true });
 * ```
 */
export interface OverrideOptions {
  /**
   * Answer the next request to the operation only, then step aside.
   *
   * @default false: answer every request until `reset()`
   */
  once?: boolean;
}

/** The success status of each operation, as the service answers it. */
export const SUCCESS_STATUS: Readonly<Record<MockOperation, number>> = {
  'projects.create': 201,
  'projects.get': 200,
  'chat.send': 200,
};

const created = {
  id: projectId,
  name: nonEmptyString,
  status: nonEmptyString,
  createdAt: utcTimestamp,
} satisfies Record<string, Rule<unknown>>;

/** What is wrong with an override's body by the service's contract; `undefined` for a good one. */
export function bodyProblem(operation: MockOperation, body: unknown): string | undefined {
  const name = `${operation} override body`;
  if (operation === 'chat.send') return chatReplyProblem(body, name);
  const shape =
    operation === 'projects.get'
      ? { ...created, agentId: nonEmptyString, metadata: jsonObject }
      : created;
  const checked = checkFields(body, shape, name);
  return checked.ok ? undefined : checked.message;
}

/** True for an answer that is a fault rather than a body: no operation's body has a `kind`. */
export function isFaultAnswer(answer: unknown): answer is FaultAnswer {
  return typeof answer === 'object' && answer !== null && Object.hasOwn(answer, 'kind');
}

type AnyHandler = OverrideHandler<MockOperation>;

/**
 * The overrides in force: for each operation, one-time ones in the order added, used first,
 * then the standing one, the latest added.
 *
 * @example
 * ```ts
 * const overrides = createOverrides();
 * overrides.add('chat.send', () => ({ kind: 'status', status: 503 }), { once: true });
 * overrides.take('chat.send'); // the handler, and then undefined
 * ```
 */
export function createOverrides() {
  let once = new Map<MockOperation, AnyHandler[]>();
  let standing = new Map<MockOperation, AnyHandler>();

  return {
    add<O extends MockOperation>(
      operation: O,
      handler: OverrideHandler<O>,
      options: OverrideOptions = {},
    ): void {
      if (!Object.hasOwn(SUCCESS_STATUS, operation)) {
        const known = Object.keys(SUCCESS_STATUS).join(', ');
        throw new ConfigurationError(
          `Unknown operation ${JSON.stringify(operation)} to override; the mock's operations are ${known}`,
        );
      }
      assertKnownOptions(options, ['once'], `The ${operation} override`);
      if (typeof handler !== 'function') {
        throw new ConfigurationError(
          `The ${operation} override must be a function, got ${typeof handler}`,
        );
      }
      const stored = handler as unknown as AnyHandler;
      if (options.once) once.set(operation, [...(once.get(operation) ?? []), stored]);
      else standing.set(operation, stored);
    },
    /** The handler for the next request to `operation`, consuming a one-time one. */
    take(operation: MockOperation): AnyHandler | undefined {
      return once.get(operation)?.shift() ?? standing.get(operation);
    },
    clear(): void {
      once = new Map();
      standing = new Map();
    },
  };
}
