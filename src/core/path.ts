/**
 * Builds a request path below `baseUrl`, percent-encoding each interpolated value as exactly one
 * segment, so that an id such as `a/../b?x#y` can never reach another route. The operations
 * build their paths with it; use it for {@link Client.request}.
 *
 * A value it cannot make safe is left as it is, for the call to refuse with a
 * `RequestValidationError` before sending: `.` and `..` (which `encodeURIComponent` leaves alone
 * and URLs treat as "here" and "up"), and a lone UTF-16 surrogate (which has no UTF-8 form).
 *
 * @throws nothing: what it cannot encode, the call refuses.
 * @example
 * ```ts
 * const projectId = 'proj_123';
 * path`/v1/projects/${projectId}/members`; // '/v1/projects/proj_123/members'
 * path`/v1/projects/${'a/b c'}`; // '/v1/projects/a%2Fb%20c'
 * ```
 */
export function path(strings: TemplateStringsArray, ...segments: string[]): string {
  return strings.reduce(
    (built, literal, index) =>
      built + literal + (index < segments.length ? encodeSegment(segments[index] as string) : ''),
    '',
  );
}

function encodeSegment(segment: string): string {
  try {
    return encodeURIComponent(segment);
  } catch {
    // A lone surrogate: a URIError here would be a raw error thrown at the caller.
    return segment;
  }
}
