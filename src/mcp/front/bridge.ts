/**
 * oidc-provider is a node:http application; agentchat/mcp's handler is a web-standard
 * `fetch(request) => Response`. light-my-request (Fastify's request injection) runs one request
 * through a node:http listener with no socket, and this turns the answer back into a `Response`.
 * The front's public origin is set on each request (`X-Forwarded-Host`, `-Proto`) so that every
 * URL oidc-provider writes is the issuer's, behind a proxy or not; those a caller sent are
 * dropped, as a caller could otherwise choose the issuer's URLs.
 */
import type { RequestListener } from 'node:http';
import { readRequestBody } from '@modelcontextprotocol/server';
import inject from 'light-my-request';

/** The largest body of a request to the front (a registration, a token request), in bytes. */
export const MAX_FRONT_BODY_BYTES = 65_536;

/** Headers a caller may not set for the provider: the bridge alone says where it is reached. */
const DROPPED = ['host', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for', 'forwarded'];

/**
 * Answers `request` with `listener`, as if it had reached `issuer`.
 *
 * @example
 * ```ts
 * const response = await bridge(provider.callback(), request, new URL('https://mcp.example.com'));
 * ```
 */
export async function bridge(
  listener: RequestListener,
  request: Request,
  issuer: URL,
): Promise<Response> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (!DROPPED.includes(name)) headers[name] = value;
  });
  headers.host = issuer.host;
  headers['x-forwarded-host'] = issuer.host;
  headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
  let payload: string | undefined;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const body = await readRequestBody(request, MAX_FRONT_BODY_BYTES);
    if (body.tooLarge) {
      return Response.json(
        { error: 'invalid_request', error_description: 'The request body is too large.' },
        { status: 413 },
      );
    }
    payload = body.text;
  }
  const answer = await inject(listener, {
    method: request.method as never,
    url: `${url.pathname}${url.search}`,
    headers,
    ...(payload !== undefined && { payload }),
  });
  const out = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    for (const item of [value].flat()) out.append(name, String(item));
  }
  const empty = request.method === 'HEAD' || [204, 304].includes(answer.statusCode);
  return new Response(empty ? null : new Uint8Array(answer.rawPayload), {
    status: answer.statusCode,
    headers: out,
  });
}
