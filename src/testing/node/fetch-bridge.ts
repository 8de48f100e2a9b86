import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A fetch `Request` for a Node request, with its whole body read. The URL is the request line
 * appended to `origin`, never resolved against it.
 *
 * @example
 * ```ts
 * const request = await toFetchRequest(req, 'http://127.0.0.1:4010', controller.signal);
 * ```
 */
export async function toFetchRequest(
  req: IncomingMessage,
  origin: string,
  signal: AbortSignal,
): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);

  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && chunks.length > 0;
  // Concatenated rather than resolved against `origin`: a request line of `//host/x` must stay a
  // path on this server, not become another host.
  return new Request(origin + (req.url ?? '/'), {
    method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : null,
    signal,
  });
}

/**
 * Streams a fetch `Response` to a Node response: status, headers, then the body chunk by chunk.
 *
 * @example
 * ```ts
 * await writeResponse(res, new Response('{}', { status: 200 }));
 * ```
 */
export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  if (response.body) {
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      res.write(chunk.value);
    }
  }
  res.end();
}
