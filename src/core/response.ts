/**
 * Reading what the service answered: each response with its body read, for ky, the error a non-2xx
 * answer stands for, and the error for a 2xx body that is not what the contract says. Whatever a
 * server echoes of a secret (the bearer token, a client secret) is redacted here, before it can reach an error.
 */
import type { SchemaValidationError } from 'ky';
import type * as z from 'zod/mini';
import {
  type APIError,
  type CallSite,
  createAPIError,
  ResponseValidationError,
  type ValidationIssue,
} from './errors/index.js';
import { serverRetryAfter } from './retry-policy.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { toIssues } from './validation.js';

/**
 * The response an attempt got, its body already read into `text`, handed on as it is with
 * `text()` and `json()` giving that text again: ky's own body read (`.json(schema)`) then finds it
 * at once, and so does a `withResponse()` caller. The read happened inside the attempt, under its
 * deadline, where a dropped connection is retried. A copy of the response would do the same at
 * the cost of a second body stream and a second read on every call (docs/performance.md).
 */
export function withBodyRead(response: Response, text: string): Response {
  Object.defineProperties(response, {
    text: { value: () => Promise.resolve(text), configurable: true },
    json: { value: () => Promise.resolve(text).then(JSON.parse), configurable: true },
  });
  return response;
}

/** The error a non-2xx response stands for, its body and headers cleared of the secrets. */
export function apiErrorOf(
  site: CallSite,
  response: Response,
  text: string,
  secrets: readonly string[],
): APIError {
  return createAPIError(
    site,
    {
      status: response.status,
      headers: scrubHeaders(response.headers, secrets),
      body: parseBody(scrub(text, secrets)).value,
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
  text: string,
  secrets: readonly string[],
  schema: StandardSchemaV1,
  schemaError: SchemaValidationError | undefined,
): ResponseValidationError {
  const body = parseBody(text).value;
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
      : [{ path: '', message: text === '' ? 'the body is empty' : 'the body is not JSON' }];
  return new ResponseValidationError(
    site,
    {
      status: response.status,
      requestId: response.headers.get('x-request-id') ?? undefined,
      body: parseBody(scrub(text, secrets)).value,
    },
    issues,
  );
}

function parseBody(text: string): { json: boolean; value: unknown } {
  if (text === '') return { json: false, value: undefined };
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false, value: text };
  }
}

/** Headers that echo a secret back (a proxy's debug header) would show it in an inspected error. */
function scrubHeaders(headers: Headers, secrets: readonly string[]): Headers {
  const values = [...headers];
  if (!values.some(([, value]) => scrub(value, secrets) !== value)) return headers;
  const scrubbed = new Headers();
  for (const [name, value] of values) scrubbed.append(name, scrub(value, secrets));
  return scrubbed;
}

/** A server that echoes a secret back must not put it into an error's message or body. */
function scrub(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    // Values too short to be real secrets would match by chance and mangle the body.
    if (secret.length >= 8) scrubbed = scrubbed.replaceAll(secret, '[redacted]');
  }
  return scrubbed;
}
