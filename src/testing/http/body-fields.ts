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
  const value = body.kind === 'json' ? body.value : undefined;
  if (!jsonObject.test(value)) {
    const got = body.kind === 'text' ? 'text that is not JSON' : describe(value);
    return { ok: false, message: `body: expected ${jsonObject.expected}, got ${got}` };
  }

  const issues: string[] = [];
  const fields: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(shape)) {
    const field = Object.hasOwn(value, name) ? value[name] : undefined;
    if (rule.test(field)) fields[name] = field;
    else issues.push(`${name}: expected ${rule.expected}, got ${describe(field)}`);
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
