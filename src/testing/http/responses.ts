/**
 * A JSON response. The one place the mock serializes bodies, so every JSON answer carries the
 * same content type.
 *
 * @example
 * ```ts
 * jsonResponse(201, { id: 'proj_1' });
 * ```
 */
export function jsonResponse(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): Response {
  return textResponse(status, JSON.stringify(body), 'application/json', headers);
}

/**
 * A response with a body sent as is. `headers` win over `contentType` whatever their case, so a
 * test can inject `{ 'Content-Type': 'text/html' }` without ending up with two content types.
 *
 * @example
 * ```ts
 * textResponse(502, '<html>Bad gateway</html>', 'text/html');
 * ```
 */
export function textResponse(
  status: number,
  body: string | null,
  contentType: string | undefined,
  headers?: Record<string, string>,
): Response {
  const merged = new Headers(contentType ? { 'content-type': contentType } : {});
  for (const [name, value] of Object.entries(headers ?? {})) merged.set(name, value);
  return new Response(body, { status, headers: merged });
}
