/**
 * `client.request`: a call to any path below `baseUrl`, for an endpoint the SDK does not know
 * yet. It is one more endpoint for the transport, made per call, so it gets everything the
 * operations get (auth per attempt, Idempotency-Key, retries, timeouts, middleware, logging,
 * the error tree). Its input is checked here, strictly, before anything is sent: above all the
 * path, so that a request can never leave the service's origin.
 */
import * as z from 'zod/mini';
import { isPlainObject } from '../internal/json.js';
import { jsonObjectSchema } from '../schemas.js';
import type { APIPromise } from './api-promise.js';
import type { Endpoint, HttpMethod } from './call.js';
import { type RequestOptions, requestOptionsSchema } from './options.js';
import type { StandardSchemaV1, StandardSchemaV1InferOutput } from './standard-schema.js';
import type { Transport } from './transport.js';
import { customCheck, mismatch } from './validation.js';

/**
 * One value of a query parameter. `undefined` leaves the parameter out.
 *
 * @example
 * ```ts
 * const limit: QueryValue = 20;
 * ```
 */
export type QueryValue = string | number | boolean;

/**
 * A request to an endpoint the SDK does not know yet, for {@link Client.request}. `Method` is the
 * method the request is made with: given as `'GET'`, the request takes no `body` (a compile error
 * rather than a `RequestValidationError`). A method only known at run time (`HttpMethod`, the
 * default) takes one, and a `GET` among them is refused when sent.
 *
 * @example
 * ```ts
 * const request: CustomRequest = {
 *   method: 'GET',
 *   path: path`/v1/projects/${'proj_123'}/members`,
 *   query: { limit: 20, role: ['owner', 'admin'] },
 * };
 * // @ts-expect-error a GET request has no body
 * const wrong: CustomRequest<'GET'> = { method: 'GET', path: '/v1/projects', body: { a: 1 } };
 * ```
 */
export interface CustomRequest<Method extends HttpMethod = HttpMethod> {
  /** The HTTP method. Every one but `GET` carries an `Idempotency-Key`. */
  method: Method;
  /**
   * The path below `baseUrl`, starting with `/`, such as `/v1/projects/proj_123/members`. Build
   * it with the {@link path} tag, which encodes each value as one segment. Absolute URLs, empty,
   * `.` and `..` segments, backslashes, a query or fragment, and characters a URL path does not
   * hold as written are refused (`RequestValidationError`, nothing sent).
   */
  path: string;
  /** The JSON body: a plain JSON object, sent as it is. Not for `GET`. */
  body?: (Method extends 'GET' ? undefined : Record<string, unknown>) | undefined;
  /** Query parameters; an array repeats the parameter, `undefined` leaves it out. */
  query?: Readonly<Record<string, QueryValue | readonly QueryValue[] | undefined>> | undefined;
}

/**
 * Options of {@link Client.request}: those of every call, and the `schema` to validate the
 * response body with.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 *
 * const options: CustomRequestOptions = { schema: z.object({ id: z.string() }), timeout: 10_000 };
 * ```
 */
export interface CustomRequestOptions<Schema extends StandardSchemaV1 = StandardSchemaV1<unknown>>
  extends RequestOptions {
  /**
   * Any Standard Schema (zod, valibot, arktype, ...) the response body must pass: the call
   * resolves to its output, and a body that fails it rejects with `ResponseValidationError`.
   * @default none: the body is parsed as JSON and returned as `unknown` (`undefined` when empty)
   */
  schema?: Schema | undefined;
}

const methods: readonly unknown[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A path below `baseUrl`: `/`, or segments each led by `/`, with an optional trailing `/`. A
 * segment holds RFC 3986's path characters as written (unreserved, sub-delims, `:`, `@`, and `%`
 * before two hex digits) and is neither `.` nor `..`, `%2e` counting as a dot, as it does to a
 * URL parser. So nothing a parser would change on the way (a tab dropped, `\` read as `/`, a
 * space encoded), nothing read as the end of the path (`?`, `#`), no empty segment (`//host`)
 * and no way up: the request stays on the route it names, on the service's origin.
 */
const safePath =
  /^(?:(?:\/(?!(?:\.|%2e){1,2}(?:\/|$))(?:[\w\-.~!$&'()*+,;=:@]|%[\da-f]{2})+)+\/?|\/)$/i;

/** True for a query value sent as it is: a string, a finite number, a boolean, an array of them. */
function isQueryValue(value: unknown): boolean {
  return [value]
    .flat()
    .every(
      (item) =>
        (typeof item === 'string' && !/\p{Cs}/u.test(item)) ||
        Number.isFinite(item) ||
        typeof item === 'boolean',
    );
}

/**
 * Query parameters: a plain object whose values pass {@link isQueryValue}. A custom check rather
 * than z.record, which would add its own schema to every browser bundle, since every client has
 * `request`. It reads the object as z.record did: its own enumerable keys, a `"__proto__"` key
 * (which JSON.parse keeps as plain data) skipped, and sent by the query builder neither.
 */
const querySchema = customCheck<CustomRequest['query']>((query, problem) => {
  if (!isPlainObject(query)) return problem(mismatch('record', query));
  for (const key of Reflect.ownKeys(query)) {
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(query, key)) continue;
    const value = query[key as string];
    if (typeof key === 'symbol') problem('is not a valid key', [key]);
    else if (value !== undefined && !isQueryValue(value)) {
      problem('expected a string, a finite number, a boolean or an array of them', [key]);
    }
  }
});

const customRequestSchema = z
  .strictObject({
    method: z.custom<HttpMethod>((method) => methods.includes(method), {
      message: "expected 'GET', 'POST', 'PUT', 'PATCH' or 'DELETE'",
    }),
    path: z.custom<string>((path) => typeof path === 'string' && safePath.test(path), {
      message:
        'expected a path below baseUrl such as /v1/projects: segments of URL path characters, ' +
        'none empty, "." or ".." (build it with the path tag; put a query in query)',
    }),
    body: z.optional(jsonObjectSchema),
    query: z.optional(querySchema),
  })
  .check(
    z.refine((request) => request.method !== 'GET' || request.body === undefined, {
      message: 'a GET request has no body',
      path: ['body'],
    }),
  );

/** The options of `client.request`: those of every call, and the schema for the body. */
const customRequestOptionsSchema = z.strictObject({
  ...requestOptionsSchema.def.shape,
  schema: z.optional(
    z.custom<StandardSchemaV1>(
      (schema) =>
        typeof (schema as StandardSchemaV1 | undefined)?.['~standard']?.validate === 'function',
      { message: 'expected a Standard Schema, such as one of zod, valibot or arktype' },
    ),
  ),
});

/** Takes any body as it is: the schema of a call given none, so an empty body gives `undefined`. */
const anyBody: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'agentchat', validate: (value) => ({ value }) },
};

/**
 * Sends a {@link CustomRequest} through the transport; see {@link Client.request}. Bad input
 * rejects the promise, never throws.
 */
export function sendCustomRequest<Schema extends StandardSchemaV1>(
  transport: Transport,
  request: CustomRequest,
  options: CustomRequestOptions<Schema> | undefined,
): APIPromise<StandardSchemaV1InferOutput<Schema>> {
  return transport.request(
    {
      name: 'request',
      method: (checked) => checked.method,
      input: customRequestSchema,
      path: (checked) => checked.path,
      query: ({ query }) =>
        query &&
        new URLSearchParams(
          Object.entries(query).flatMap(([name, value]) =>
            [value]
              .flat()
              .flatMap((item) =>
                item === undefined || name === '__proto__' ? [] : [[name, String(item)]],
              ),
          ),
        ),
      body: (checked) => checked.body,
      options: customRequestOptionsSchema,
      // Read before the options are checked, and used only once they passed.
      output: (options as { schema?: StandardSchemaV1 } | null | undefined)?.schema ?? anyBody,
    } as Endpoint<CustomRequest, StandardSchemaV1InferOutput<Schema>>,
    request,
    options,
  );
}
