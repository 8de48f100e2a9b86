/**
 * The shapes of every request and response, as zod/mini schemas and as the public types users see.
 * Input schemas are strict (a misspelt field is an error, not silently dropped); response schemas
 * are loose (fields the service adds later are kept, and a new `status` is not an error).
 */
import * as z from 'zod/mini';
import { customCheck, nonEmptyString } from './core/validation.js';
import { findNonJson } from './internal/json.js';

/**
 * A project's state. `active` is the only one the service names today; others may follow.
 *
 * @example
 * ```ts
 * const project = await client.projects.get('proj_123');
 * if (project.status !== 'active') console.warn(`Project is ${project.status}`);
 * ```
 */
export type ProjectStatus = 'active' | (string & {});

/**
 * Free-form JSON object attached to a project; keys and values are the application's own.
 * Only plain JSON is accepted: no `undefined`, `NaN`, `Date`, class instances or cycles.
 *
 * @example
 * ```ts
 * const metadata: Metadata = { launchDate: '2026-12-01', tier: 2, tags: ['beta'] };
 * await client.projects.create({ name: 'Support', agentId: 'agent_42', metadata });
 * ```
 */
export type Metadata = Record<string, unknown>;

/**
 * What `projects.create` sends.
 *
 * @example
 * ```ts
 * const params: ProjectCreateParams = { name: 'Support desk', agentId: 'agent_support' };
 * const project = await client.projects.create(params);
 * ```
 */
export interface ProjectCreateParams {
  /** Human-readable project name. Must not be empty. */
  name: string;
  /** Identifier of the agent to bind the project to. Must not be empty. */
  agentId: string;
  /**
   * Any JSON object to keep with the project, such as `{ launchDate: '2026-01-01', tier: 2 }`: a
   * {@link Metadata} or a value of an interface of your own (`interface TeamMeta { team: string }`),
   * which `Record<string, unknown>` alone would refuse, having no index signature. Checked when
   * sent: a plain object of JSON values, or the call fails with `RequestValidationError`.
   */
  metadata?:
    | Metadata
    // Any object but an array, a Map or a Set: those the types can tell. (A function or a class
    // instance compiles, and is refused when sent.)
    | (object & {
        /** Absent: an array, a Map or a Set is no metadata. */
        readonly [Symbol.iterator]?: never;
      })
    | undefined;
}

/**
 * What `projects.create` returns: the service's create response carries only these fields.
 *
 * @example
 * ```ts
 * const params = { name: 'Support', agentId: 'agent_42' };
 * const created: CreatedProject = await client.projects.create(params);
 * console.log(created.id, created.status, created.createdAt);
 * ```
 */
export interface CreatedProject {
  /** The project's identifier, `proj_<id>`. */
  id: string;
  /** The project's name. */
  name: string;
  /** `active` for a new project. */
  status: ProjectStatus;
  /** Creation time, an ISO 8601 UTC timestamp. */
  createdAt: string;
}

/**
 * A project as `projects.get` returns it.
 *
 * @example
 * ```ts
 * const project: Project = await client.projects.get('proj_123');
 * console.log(project.agentId, project.metadata);
 * ```
 */
export interface Project extends CreatedProject {
  /** Identifier of the agent the project is bound to. */
  agentId: string;
  /** The metadata given at creation; `{}` when none was given. */
  metadata: Metadata;
}

/**
 * What `chat.send` sends.
 *
 * @example
 * ```ts
 * const params: ChatSendParams = { projectId: 'proj_123', message: 'What can you do?' };
 * const reply = await client.chat.send(params);
 * ```
 */
export interface ChatSendParams {
  /** The project whose agent receives the message, `proj_<id>`. */
  projectId: string;
  /** The text to send. Must not be empty. */
  message: string;
}

/**
 * The agent's answer to a chat message.
 *
 * @example
 * ```ts
 * const reply: ChatReply = await client.chat.send({ projectId: 'proj_123', message: 'Hi' });
 * console.log(reply.message);
 * for (const suggestion of reply.suggestions) console.log('-', String(suggestion));
 * ```
 */
export interface ChatReply {
  /** The agent's reply text. */
  message: string;
  /** Suggestions returned with the reply. The service does not fix their shape, so they are `unknown`. */
  suggestions: unknown[];
}

/**
 * An id goes into a path segment: `.` and `..` would change the route, so they are refused, and so
 * is a lone UTF-16 surrogate, which has no UTF-8 form to percent-encode.
 */
const pathId = nonEmptyString.check(
  z.refine((id) => id !== '.' && id !== '..', { message: 'must not be "." or ".."' }),
  z.refine((id) => !/\p{Cs}/u.test(id), {
    message: 'must not contain a lone surrogate (half of a UTF-16 pair)',
  }),
);

/** A plain JSON object (`metadata`, a call's `extraBody`): no `undefined`, `NaN`, class or cycle. */
export const jsonObjectSchema = customCheck<Record<string, unknown>>((value, problem) => {
  const found = findNonJson(value, []);
  if (found) problem(found.message, found.path);
});

export const projectCreateParamsSchema = z.strictObject({
  name: nonEmptyString,
  agentId: nonEmptyString,
  metadata: z.optional(jsonObjectSchema),
});

export const projectIdSchema = z.strictObject({ id: pathId });

export const chatSendParamsSchema = z.strictObject({
  projectId: pathId,
  message: nonEmptyString,
});

export const createdProjectSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
});

export const projectSchema = z.looseObject({
  ...createdProjectSchema.def.shape,
  agentId: z.string(),
  // The service documents metadata as an object; read a missing or null one as empty. (Checks
  // rather than z.pipe, z.nullish, z.record, z.transform and z._default: 0.5 KiB less in a
  // browser bundle.)
  metadata: z.custom<Metadata>().check(
    z.refine((value) => value == null || (typeof value === 'object' && !Array.isArray(value)), {
      message: 'expected an object',
    }),
    z.overwrite((value) => withoutProtoKey(value ?? {})),
  ),
});

export const chatReplySchema = z.looseObject({
  message: z.string(),
  // A custom check rather than z.array, which would add 0.2 KiB min+gzip to browser bundles.
  suggestions: z.custom<unknown[]>(Array.isArray, { message: 'expected an array' }),
});

/**
 * A top-level `"__proto__"` key, which JSON.parse keeps as plain data, is dropped: code that copies
 * metadata with `Object.assign` would otherwise set its target's prototype from it.
 */
function withoutProtoKey(metadata: Metadata): Metadata {
  if (!Object.hasOwn(metadata, '__proto__')) return metadata;
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => key !== '__proto__'));
}
