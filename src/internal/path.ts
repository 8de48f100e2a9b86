/**
 * Builds a request path, percent-encoding each interpolated value as exactly one segment, so an
 * id such as `a/../b?x#y` can never reach another route. Dot segments are refused by input
 * validation before this runs, since `encodeURIComponent` leaves them as they are; so are lone
 * surrogates, on which it throws a URIError.
 */
export function path(strings: TemplateStringsArray, ...segments: string[]): string {
  return strings.reduce(
    (built, literal, index) =>
      built +
      literal +
      (index < segments.length ? encodeURIComponent(segments[index] as string) : ''),
    '',
  );
}
