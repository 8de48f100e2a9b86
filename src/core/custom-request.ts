/**
 * `client.request`: a call to any path below `baseUrl`, for an endpoint the SDK does not know
 * yet. It is one more endpoint for the transport, made per call, so it gets everything the
 * operations get (auth per attempt, Idempotency-Key, retries, timeouts, middleware, logging,
 * the error tree). Its input is checked here, strictly, before anything is sent: above all the
 * path, so that a request can never leave the service's origin.
 */
import * as z from 'zod/mini';
import { describeValue, findNonJson } from '../internal/json.js';
import { type APIPromise, apiPromise } from './api-promise.js';
import type { Endpoint, HttpMethod } from './call.js';
import { RequestValidationError } from './errors/index.js';
import type { RequestOptions } from './options.js';
import type { StandardSchemaV1, StandardSchemaV1InferOutput } from './standard-schema.js';
import type { Transport } from './transport.js';

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
 * A request to an endpoint the SDK does not know yet, for {@link Client.request}.
 *
 * @example
 * ```ts
 * const request: CustomRequest = {
 *   method: 'GET',
 *   path: path`/v1/projects/${'proj_123'}/members`,
 *   query: { limit: 20, role: ['owner', 'admin'] },
 * };
 * ```
 */
export interface CustomRequest {
  /** The HTTP method. Every one but `GET` carries an `Idempotency-Key`. */
  method: HttpMethod;
  /**
   * The path below `baseUrl`, starting with `/`, such as `/v1/projects/proj_123/members`. Build
   * it with the {@link path} tag, which encodes each value as one segment. Absolute URLs, `.` and
   * `..` segments, backslashes, a query or fragment, and characters a URL path does not hold
   * as written are refused (`RequestValidationError`, nothing sent).
   */
  path: string;
  /** The JSON body, sent as it is once checked to be plain JSON. Not for `GET`. */
  body?: unknown;
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
 * const options: CustomRequestOptions<z.ZodMiniType<{ id: string }>> = {
 *   schema: z.object({ id: z.string() }),
 *   timeout: 10_000,
 * };
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
 * What a path may hold as written: RFC 3986's path characters (unreserved, sub-delims, `:`, `@`
 * and `/`) and `%` before two hex digits. Anything else a URL parser would change on the way
 * (drop a tab, turn `\` into `/`, encode a space) or read as the end of the path (`?`, `#`).
 */
const pathCharacters = /^(?:[\w\-.~!$&'()*+,;=:@/]|%[\dA-Fa-f]{2})*$/;

/** Why a path could leave the route it names, or the origin; `undefined` when it is safe. */
function pathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string') return `expected a string, received ${describeValue(path)}`;
  if (!path.startsWith('/') || path.startsWith('//')) {
    return 'must start with one "/": a path below baseUrl, such as /v1/projects, never a URL';
  }
  if (!pathCharacters.test(path)) {
    return 'must hold only URL path characters, with no query: build it with the path tag, and pass the query as query';
  }
  const segments = path.split('/').slice(1);
  // `%2e` is a dot to a URL parser: `/%2e%2e/` climbs as `/../` does. A trailing "/" is fine.
  const climbs = segments.some(
    (segment, index) =>
      /^(\.|%2e){0,2}$/i.test(segment) && (segment !== '' || index < segments.length - 1),
  );
  return climbs ? 'must not hold an empty, "." or ".." segment' : undefined;
}

/** Why a query value cannot be sent as it is; `undefined` when it can. */
function queryValueProblem(value: unknown): string | undefined {
  return (typeof value === 'string' && !/\p{Cs}/u.test(value)) ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'boolean'
    ? undefined
    : `expected a string, a finite number or a boolean, received ${typeof value === 'number' ? value : describeValue(value)}`;
}

/** A check that reports, at its field, each problem `problems` finds in the value. */
function checkedWith<T>(problems: (value: T) => Array<{ path?: PropertyKey[]; message: string }>) {
  return z.custom<T>().check(
    z.superRefine((value: T, context) => {
      for (const issue of problems(value))
        context.addIssue({ code: 'custom', input: value, ...issue });
    }),
  );
}

const customRequestSchema = z
  .strictObject({
    method: z.custom<HttpMethod>((method) => methods.includes(method), {
      message: "expected 'GET', 'POST', 'PUT', 'PATCH' or 'DELETE'",
    }),
    path: checkedWith<string>((path) => {
      const message = pathProblem(path);
      return message ? [{ message }] : [];
    }),
    body: z.optional(
      checkedWith<unknown>((body) => {
        const problem = findNonJson({ body }, []);
        return problem ? [{ path: problem.path.slice(1), message: problem.message }] : [];
      }),
    ),
    query: z.optional(
      checkedWith<CustomRequest['query']>((query) => {
        if (typeof query !== 'object' || query === null || Array.isArray(query)) {
          return [{ message: `expected an object, received ${describeValue(query)}` }];
        }
        return Object.entries(query).flatMap(([name, value]) =>
          queryValues(value).flatMap((item) => {
            const message = queryValueProblem(item);
            return message ? [{ path: [name], message }] : [];
          }),
        );
      }),
    ),
  })
  .check(
    z.refine((request) => request.method !== 'GET' || request.body === undefined, {
      message: 'a GET request has no body',
      path: ['body'],
    }),
  );

/** Takes any body as it is: the schema of a call given none. */
const anyBody: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'agentchat', validate: (value) => ({ value }) },
};

function isStandardSchema(schema: unknown): schema is StandardSchemaV1 {
  return typeof (schema as StandardSchemaV1 | undefined)?.['~standard']?.validate === 'function';
}

/** A query parameter's values: an array's items, or the one value, or none for `undefined`. */
function queryValues(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/** The query string of a checked request, `undefined` when it has none. */
function searchParams(request: CustomRequest): URLSearchParams | undefined {
  if (!request.query) return undefined;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    for (const item of queryValues(value)) {
      params.append(name, String(item));
    }
  }
  return params;
}

/**
 * Sends a {@link CustomRequest} through the transport; see {@link Client.request}. Bad input
 * rejects the promise, never throws.
 */
export function sendCustomRequest<Schema extends StandardSchemaV1>(
  transport: Transport,
  request: CustomRequest,
  rawOptions: CustomRequestOptions<Schema> | undefined,
): APIPromise<StandardSchemaV1InferOutput<Schema>> {
  let schema: unknown;
  let options: RequestOptions | undefined = rawOptions;
  // `schema` is this call's own option; the rest are checked as every call's are.
  if (typeof rawOptions === 'object' && rawOptions !== null && 'schema' in rawOptions) {
    ({ schema, ...options } = rawOptions);
  }
  if (schema !== undefined && !isStandardSchema(schema)) {
    return apiPromise(
      Promise.reject(
        new RequestValidationError('request options', [
          {
            path: 'schema',
            message: `expected a Standard Schema (zod, valibot, arktype...), received ${describeValue(schema)}`,
          },
        ]),
      ),
    );
  }
  const endpoint: Endpoint<CustomRequest, StandardSchemaV1InferOutput<Schema>> = {
    name: 'request',
    method: (checkedRequest) => checkedRequest.method,
    input: customRequestSchema,
    path: (checkedRequest) => checkedRequest.path,
    query: searchParams,
    body: (checkedRequest) => checkedRequest.body,
    output: (schema ?? anyBody) as StandardSchemaV1<unknown, StandardSchemaV1InferOutput<Schema>>,
  };
  return transport.request(endpoint, request, options);
}
