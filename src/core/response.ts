/**
 * Reading what the service answered: each response with its body read, for ky, the error a non-2xx
 * answer stands for, and the error for a 2xx body that is not what the contract says. Whatever a
 * server echoes of a secret (the bearer token, a client secret, an issued token) is redacted here,
 * before it can reach an error.
 */
import type { SchemaValidationError } from 'ky';
import type * as z from 'zod/mini';
import { isTooDeep, MAX_JSON_DEPTH } from '../internal/json.js';
import {
  type APIError,
  type CallSite,
  createAPIError,
  ResponseValidationError,
  type ValidationIssue,
} from './errors/index.js';
import { requestIdOf, scrub, scrubHeaders } from './redaction.js';
import { serverRetryAfter } from './retry-policy.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { toIssues } from './validation.js';

/**
 * The response an attempt got, its body already read into `text`, handed on as it is with
 * `text()` and `json()` giving that text again: ky's own body read (`.json(schema)`) then finds it
 * at once, and so does a `withResponse()` caller. The read happened inside the attempt, under its
 * deadline, where a dropped connection is retried. A copy of the response would do the same at
 * the cost of a second body stream and a second read on every call
 * (docs/maintainers/performance.md).
 */
export function withBodyRead(response: Response, text: string): Response {
  // Plain assignments of shared functions: no closures and no property descriptors per response.
  const read = response as ReadResponse;
  read[BODY] = text;
  read.text = readText;
  read.json = readJson;
  return response;
}

/** Where a read response keeps its body's text. */
const BODY = Symbol('body');
type ReadResponse = Response & { [BODY]: string };

/** The text of a response's body as {@link withBodyRead} kept it; empty for one handed over unread. */
function bodyText(response: Response): string {
  return (response as Partial<ReadResponse>)[BODY] ?? '';
}

function readText(this: ReadResponse): Promise<string> {
  return Promise.resolve(this[BODY]);
}

function readJson(this: ReadResponse): Promise<unknown> {
  return Promise.resolve(this[BODY]).then(parseJson);
}

/** The error a non-2xx response stands for, its body and headers cleared of the secrets. */
export function apiErrorOf(
  site: CallSite,
  response: Response,
  secrets: readonly string[],
): APIError {
  const text = bodyText(response);
  return createAPIError(
    site,
    {
      status: response.status,
      headers: scrubHeaders(response.headers, secrets),
      body: parseBody(scrub(text, secrets)),
    },
    serverRetryAfter(response.headers),
  );
}

/**
 * The error for a 2xx body that is not JSON or fails the endpoint's schema. A zod schema's issues
 * are worded for people here (zod/mini's own say "Invalid input", since it ships no locale);
 * another library's are its own.
 */
export function invalidBodyError(
  site: CallSite,
  response: Response,
  secrets: readonly string[],
  schema: StandardSchemaV1,
  schemaError: SchemaValidationError | undefined,
): ResponseValidationError {
  const text = bodyText(response);
  const body = parseBody(text);
  // An empty body reaches a schema as `undefined`, which only a schema for "no body" accepts.
  const issues: ValidationIssue[] =
    schemaError && text !== ''
      ? schemaError.issues.flatMap((issue) =>
          '_zod' in schema
            ? toIssues(issue as z.core.$ZodIssue, body, schema as z.ZodMiniType)
            : {
                path: (issue.path ?? [])
                  .map((key) => String(typeof key === 'object' ? key.key : key))
                  .join('.'),
                message: issue.message,
              },
        )
      : [{ path: '', message: unreadableBody(text) }];
  return new ResponseValidationError(
    site,
    {
      status: response.status,
      requestId: requestIdOf(response.headers, secrets),
      body: parseBody(scrub(text, secrets)),
    },
    issues,
  );
}

/** Why a 2xx body could not be read as JSON. */
function unreadableBody(text: string): string {
  if (text === '') return 'the body is empty';
  return isTooDeep(text)
    ? `the body is nested deeper than ${MAX_JSON_DEPTH} levels`
    : 'the body is not JSON';
}

/**
 * Reads a body as JSON. JSON nested deeper than any real answer is refused as if it were not JSON
 * at all: parsed, it would overflow the stack of whatever walks it next (a validator,
 * `JSON.stringify`, `util.inspect`) with a raw `RangeError`. ky reads a 2xx body with its own
 * `JSON.parse`, after the attempt has refused one nested too deep.
 */
function parseJson(text: string): unknown {
  // As ky does without a parser of its own: an empty body reaches the schema as `undefined`.
  if (text === '') return undefined;
  if (isTooDeep(text)) throw new SyntaxError('nested too deep');
  return JSON.parse(text);
}

/** A body for an error's `.body`: JSON when it parses (and is not too deep), else the text. */
function parseBody(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}
