import * as z from 'zod/mini';
import { closest } from '../internal/closest.js';
import { describeValue } from '../internal/json.js';
import type { ValidationIssue } from './errors/index.js';

/**
 * The check of a string that must not be empty. A refinement rather than z.minLength, whose check
 * would add 0.3 KiB min+gzip to browser bundles; JSON Schema (the MCP tools') knows it by identity.
 */
export const notEmpty = z.refine<string>((value) => value !== '', { message: 'must not be empty' });

/** A string that is not empty. */
export const nonEmptyString = z.string().check(notEmpty);

/**
 * A header value fetch and Node's HTTP client both send (RFC 9110 field-value): tabs, spaces,
 * visible ASCII and Latin-1. fetch refuses code points above U+00FF, Node's client also control
 * characters, so each would otherwise surface as a connection error, retried in vain.
 */
export const headerValue = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Reports a problem of a value under check, at `path` below it (the value itself by default). */
export type ReportProblem = (message: string, path?: PropertyKey[]) => void;

/**
 * A schema of one custom check, for what zod/mini's own schemas would say at a cost in browser
 * bundles (z.union, z.record, z.array, number checks): `check` reports each problem it finds.
 * One function for every such check, so a page carries zod's refinement plumbing once.
 */
export function customCheck<T>(
  check: (value: unknown, problem: ReportProblem) => void,
): z.ZodMiniCustom<T, T> {
  return z
    .custom<T>()
    .check(
      z.superRefine((value, context) =>
        check(value, (message, path = []) => context.addIssue({ code: 'custom', message, path })),
      ),
    );
}

/**
 * Validates `value` with `schema`. Returns the parsed value or the issues, worded for people:
 * zod/mini ships no messages (locales would cost bundle size), so they are written here.
 */
export function validate<T>(
  schema: z.ZodMiniType<T>,
  value: unknown,
): { ok: true; data: T } | { ok: false; issues: ValidationIssue[] } {
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(value);
  } catch (error) {
    // A Proxy or a getter that throws while read, or a value too deep for the stack: the input
    // cannot be read, which is the caller's problem to hear about, not a raw error.
    const detail = error instanceof Error ? `: ${error.message}` : '';
    return { ok: false, issues: [{ path: '', message: `could not be read${detail}` }] };
  }
  if (result.success) return { ok: true, data: result.data };
  return {
    ok: false,
    issues: result.error.issues.flatMap((issue) => toIssues(issue, value, schema)),
  };
}

/** One zod issue with `root`, in words: a misspelt field gets a "did you mean". */
export function toIssues(
  issue: z.core.$ZodIssue,
  root: unknown,
  schema: z.ZodMiniType<unknown>,
): ValidationIssue[] {
  const path = issue.path.map(String);
  const received = valueAt(root, issue.path);
  if (issue.code === 'unrecognized_keys') {
    // A misspelt name is the usual cause: name the one that was probably meant.
    const known = fieldsAt(schema, issue.path);
    return issue.keys.map((key) => {
      const meant = closest(key, known);
      return {
        path: [...path, key].join('.'),
        message: meant ? `is not a known field; did you mean ${meant}?` : 'is not a known field',
      };
    });
  }
  return [{ path: path.join('.'), message: issueMessage(issue, received) }];
}

/** The message of an issue about one value, `received` (`undefined` when it is missing). */
function issueMessage(issue: z.core.$ZodIssue, received: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return received === undefined
        ? `is required (expected ${article(issue.expected)})`
        : mismatch(issue.expected, received);
    case 'too_small':
      return issue.origin === 'string'
        ? 'must not be empty'
        : `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      return `must be at most ${issue.maximum}`;
    case 'invalid_key':
      return issue.issues[0]?.message ?? 'is not a valid key';
    default:
      return issue.message;
  }
}

/**
 * What a value of the wrong type gets told: `expected a number, received a string`. A number
 * where one is expected, but not a finite one, is shown itself ("received NaN").
 */
export function mismatch(expected: string, received: unknown): string {
  const shown =
    typeof received === 'number' && (expected === 'number' || expected === 'int')
      ? String(received)
      : describeValue(received);
  return `expected ${article(expected)}, received ${shown}`;
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** The field names of the object schema at `path` inside `schema` (none when it is not one). */
export function fieldsAt(schema: z.ZodMiniType<unknown>, path: readonly PropertyKey[]): string[] {
  let current: z.core.$ZodType | undefined = schema;
  for (const key of path) {
    current = shapeOf(current)?.[key as string];
  }
  return Object.keys(shapeOf(current) ?? {});
}

function shapeOf(schema: z.core.$ZodType | undefined): Record<string, z.core.$ZodType> | undefined {
  let def = schema?._zod.def as { type: string; shape?: unknown; innerType?: z.core.$ZodType };
  // Look through `optional` and the like to the object inside.
  while (def?.innerType) def = def.innerType._zod.def as typeof def;
  return def?.type === 'object' ? (def.shape as Record<string, z.core.$ZodType>) : undefined;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
