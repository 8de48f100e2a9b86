/**
 * Matches a path against a pattern segment by segment, returning the parameters or `undefined`.
 * A `:name` segment takes exactly one non-empty segment, decoded once here so that an id holding
 * `%2F` stays one id rather than becoming two segments.
 *
 * @example
 * ```ts
 * matchPathPattern('/v1/projects/:id', '/v1/projects/proj_1'); // { id: 'proj_1' }
 * matchPathPattern('/v1/projects/:id', '/v1/projects');        // undefined
 * ```
 */
export function matchPathPattern(
  pattern: string,
  path: string,
): Record<string, string> | undefined {
  const expected = pattern.split('/');
  const actual = path.split('/');
  if (expected.length !== actual.length) return undefined;

  const params: Record<string, string> = {};
  for (const [index, part] of expected.entries()) {
    const segment = actual[index] ?? '';
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      params[part.slice(1)] = decodeSegment(segment);
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

/** A malformed escape such as `%E0%A4` is kept as written: no project has that id, so it is a 404. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
