import type { RequestBody } from './request-body.js';

/**
 * One field's rule in the service contract. Written by hand rather than shared with the client's
 * schemas, so a mistake in those cannot be mirrored here and pass unnoticed.
 */
export interface Rule<T> {
  /** Completes "expected ...", e.g. `a non-empty string`. */
  readonly expected: string;
  test(value: unknown): value is T;
}

/** A string with at least one character. */
export const nonEmptyString: Rule<string> = {
  expected: 'a non-empty string',
  test: (value): value is string => typeof value === 'string' && value.length > 0,
};

/** A JSON object: not an array and not null. */
export const jsonObject: Rule<Record<string, unknown>> = {
  expected: 'a JSON object',
  test: (value): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value),
};

/** Any string, the empty one included. */
export const string: Rule<string> = {
  expected: 'a string',
  test: (value): value is string => typeof value === 'string',
};

/** A JSON array, whatever its items. */
export const array: Rule<unknown[]> = {
  expected: 'an array',
  test: (value): value is unknown[] => Array.isArray(value),
};

/** A project id as the service makes them: `proj_` and at least one letter, digit, `_` or `-`. */
export const projectId: Rule<string> = {
  expected: 'an id such as "proj_123"',
  test: (value): value is string => typeof value === 'string' && /^proj_[\w-]+$/.test(value),
};

/** An ISO 8601 UTC timestamp such as `2026-01-31T09:30:00Z`, fractions of a second allowed. */
export const utcTimestamp: Rule<string> = {
  expected: 'an ISO 8601 UTC timestamp such as "2026-01-31T09:30:00Z"',
  test: (value): value is string =>
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value) &&
    !Number.isNaN(Date.parse(value)),
};

/**
 * The rule, or the field left out entirely (an explicit `null` is still refused).
 *
 * @example
 * ```ts
 * readFields(body, { metadata: optional(jsonObject) });
 * ```
 */
export function optional<T>(rule: Rule<T>): Rule<T | undefined> {
  return {
    expected: rule.expected,
    test: (value): value is T | undefined => value === undefined || rule.test(value),
  };
}

type Shape = Record<string, Rule<unknown>>;
type FieldsOf<S extends Shape> = { [K in keyof S]: S[K] extends Rule<infer T> ? T : never };

/** The body's fields when they follow the rules, or a message naming each field that does not. */
export type FieldsResult<S extends Shape> =
  | { ok: true; fields: FieldsOf<S> }
  | { ok: false; message: string };

/**
 * Reads a JSON object body by the given rules. Fields not named in `shape` are ignored, as the
 * service ignores fields it does not know.
 *
 * @example
 * ```ts
 * const result = readFields(body, { message: nonEmptyString });
 * if (!result.ok) return errorResponse(400, requestId, result.message);
 * // result.message: 'message: expected a non-empty string, got an empty string'
 * ```
 */
export function readFields<S extends Shape>(body: RequestBody, shape: S): FieldsResult<S> {
  if (body.kind === 'text') {
    return {
      ok: false,
      message: `body: expected ${jsonObject.expected}, got text that is not JSON`,
    };
  }
  return checkFields(body.kind === 'json' ? body.value : undefined, shape);
}

/**
 * Checks any value as an object by the given rules: what the mock is handed rather than sent
 * (seeds, a scripted agent's reply, an override's body). `name` prefixes every message, such as
 * `projects[0]` in `projects[0].agentId: expected a non-empty string, got nothing`.
 *
 * @example
 * ```ts
 * checkFields({ message: 'Hi', suggestions: 'none' }, { suggestions: array }, 'reply');
 * // { ok: false, message: 'reply.suggestions: expected an array, got a string' }
 * ```
 */
export function checkFields<S extends Shape>(
  value: unknown,
  shape: S,
  name = 'body',
): FieldsResult<S> {
  if (!jsonObject.test(value)) {
    return {
      ok: false,
      message: `${name}: expected ${jsonObject.expected}, got ${describe(value)}`,
    };
  }
  // A body keeps its fields' bare names, as the service's messages always have.
  const prefix = name === 'body' ? '' : `${name}.`;
  const issues: string[] = [];
  const fields: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(shape)) {
    const given = Object.hasOwn(value, field) ? value[field] : undefined;
    if (rule.test(given)) fields[field] = given;
    else issues.push(`${prefix}${field}: expected ${rule.expected}, got ${describe(given)}`);
  }
  return issues.length === 0
    ? { ok: true, fields: fields as FieldsOf<S> }
    : { ok: false, message: issues.join('; ') };
}

/** Names what arrived, for messages; never the value itself, which may be long or private. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === '') return 'an empty string';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}
