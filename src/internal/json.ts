/** Checks that a value is plain JSON, for request bodies that must reach the service unchanged. */

/**
 * The deepest nesting accepted in JSON going either way. Far beyond any real body, and far below
 * what overflows the stack of a recursive reader (`JSON.stringify`, `util.inspect`, a validator).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Finds the first value in `value` that JSON cannot carry faithfully: the body would otherwise be
 * changed silently (`undefined` dropped, `NaN` turned to null, a Date to a string) or fail to
 * serialise at all (cycles, BigInt).
 */
export function findNonJson(
  value: unknown,
  path: PropertyKey[],
  seen: Set<object> = new Set(),
): NonJson | undefined {
  if (path.length === 0 && !isPlainObject(value)) {
    return nonJson(path, `expected a plain JSON object, received ${describeValue(value)}`);
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value)
      ? undefined
      : nonJson(path, `expected a finite number, received ${value}`);
  }
  if (typeof value !== 'object' || !(Array.isArray(value) || isPlainObject(value))) {
    return nonJson(path, `expected a JSON value, received ${describeValue(value)}`);
  }
  if (path.length > MAX_JSON_DEPTH) {
    return nonJson(path.slice(0, 1), `must not be nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  if (seen.has(value)) return nonJson(path, 'expected a JSON value, received a circular reference');
  if (Array.isArray(value) && !isDenseArray(value)) {
    // JSON would turn each hole into null and drop any named property.
    return nonJson(
      path,
      'expected a JSON array, received a sparse array or one with named properties',
    );
  }
  seen.add(value);
  for (const [key, item] of Object.entries(value)) {
    const problem = findNonJson(item, [...path, Array.isArray(value) ? Number(key) : key], seen);
    if (problem) return problem;
  }
  seen.delete(value);
  return undefined;
}

/** Where a value stops being JSON, and why. */
interface NonJson {
  path: PropertyKey[];
  message: string;
}

function nonJson(path: PropertyKey[], message: string): NonJson {
  return { path, message };
}

/** True when an array's own keys are exactly its indexes 0 to length - 1. */
function isDenseArray(value: unknown[]): boolean {
  const keys = Object.keys(value);
  return keys.length === value.length && keys.every((key, index) => key === String(index));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Names a value's kind for an error message: `null`, `an array`, `Date instance`, `string`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object')
    return `${value.constructor?.name ?? 'an object'} instance`.replace(
      /^Object instance$/,
      'an object',
    );
  return typeof value;
}

/**
 * True when JSON text nests arrays and objects deeper than `MAX_JSON_DEPTH`: a server's answer
 * that would parse, but overflow the stack of whatever walks it next. One pass over the text,
 * brackets inside strings skipped.
 */
export function isTooDeep(text: string): boolean {
  // Nesting past the limit takes an opening and a closing bracket per level at least.
  if (text.length < 2 * (MAX_JSON_DEPTH + 1)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92)
        i++; // a backslash escapes the next character
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 91 || code === 123) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (code === 93 || code === 125) depth--;
  }
  return false;
}
